package io.tessera.meta.snapshot;

import io.tessera.common.proto.DirEntryProto;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.ReadDirRequestProto;
import io.tessera.common.proto.ReadDirResponseProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.state.Actor;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceQueries;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.NamespaceView;
import io.tessera.meta.state.PathResolver;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.ratis.util.FileUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespace of every snapshot, as each replica captured it: one RocksDB checkpoint per snapshot
 * in {@code <dir>/<epoch>/}, opened read-only on first use. Serves reads of paths under {@code
 * /.snapshots}: inodes there carry the snapshot's epoch (their bytes are the shard versions at or
 * below it), are read-only, and list the servers that missed the snapshot as stale so that readers
 * decode around them.
 */
public final class SnapshotViews implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotViews.class);

  /** Inode id of the synthetic /.snapshots directory (never allocated to a real inode). */
  public static final long SNAPSHOTS_DIR_ID = Long.MAX_VALUE;

  private final Path dir;

  /** How long a reader of a snapshot waits for its namespace checkpoint to be taken. */
  private static final Duration CAPTURE_WAIT = Duration.ofSeconds(10);

  private final Map<Long, NamespaceStore> open = new HashMap<>();
  private final Map<Long, CompletableFuture<Void>> capturing = new ConcurrentHashMap<>();

  public SnapshotViews(Path dir) throws IOException {
    this.dir = dir;
    Files.createDirectories(dir);
  }

  /** Whether a path lies under /.snapshots (where nothing may change). */
  public static boolean isSnapshotPath(String path) {
    return PathResolver.isSnapshotPath(path);
  }

  /** Takes the namespace checkpoint of the snapshot at {@code epoch} (replacing a partial one). */
  public void capture(NamespaceStore live, long epoch) throws IOException {
    Path target = dir.resolve(Long.toString(epoch));
    Path tmp = dir.resolve(".tmp-" + epoch);
    FileUtils.deleteFully(tmp.toFile());
    live.checkpoint(tmp);
    synchronized (this) {
      NamespaceStore stale = open.remove(epoch);
      if (stale != null) {
        stale.close();
      }
      FileUtils.deleteFully(target.toFile());
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }
  }

  /**
   * Hard-links the checkpoints of {@code snapshots} into {@code target}/&lt;epoch&gt;/ (a Ratis
   * checkpoint being taken: they travel with it to a replica that catches up from it). A snapshot
   * whose checkpoint this replica lacks is left out, with a warning.
   */
  public synchronized void linkInto(Path target, List<SnapshotProto> snapshots) throws IOException {
    for (SnapshotProto s : snapshots) {
      Path from = dir.resolve(Long.toString(s.getEpoch()));
      if (!Files.isDirectory(from)) {
        LOG.warn(
            "Snapshot '{}' (epoch {}) has no namespace checkpoint on this replica; a replica catching up from "
                + "this one will not have it either",
            s.getName(),
            s.getEpoch());
        continue;
      }
      linkTree(from, target.resolve(Long.toString(s.getEpoch())));
    }
  }

  /**
   * After this replica's namespace was replaced by a leader's checkpoint: takes the snapshot
   * checkpoints that came with it ({@code shipped}/&lt;epoch&gt;/) for the snapshots in the catalog
   * that it lacks, and deletes those of snapshots no longer in the catalog.
   */
  public synchronized void adopt(Path shipped, List<SnapshotProto> catalog) throws IOException {
    Set<String> keep = new HashSet<>();
    for (SnapshotProto s : catalog) {
      String epoch = Long.toString(s.getEpoch());
      keep.add(epoch);
      Path mine = dir.resolve(epoch);
      Path theirs = shipped.resolve(epoch);
      if (!Files.isDirectory(mine) && Files.isDirectory(theirs)) {
        Path tmp = dir.resolve(".tmp-" + epoch);
        FileUtils.deleteFully(tmp.toFile());
        linkTree(theirs, tmp);
        Files.move(tmp, mine, StandardCopyOption.ATOMIC_MOVE);
        LOG.info(
            "Snapshot '{}' (epoch {}): namespace checkpoint taken from the leader's",
            s.getName(),
            epoch);
      }
    }
    try (Stream<Path> all = Files.list(dir)) {
      for (Path d : (Iterable<Path>) all::iterator) {
        String name = d.getFileName().toString();
        if (name.chars().allMatch(Character::isDigit) && !keep.contains(name)) {
          NamespaceStore view = open.remove(Long.parseLong(name));
          if (view != null) {
            view.close();
          }
          FileUtils.deleteFully(d.toFile());
        }
      }
    }
  }

  /** Hard links of every file under {@code from} (checkpoints never change once taken). */
  private static void linkTree(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (Files.isDirectory(f)) {
          linkTree(f, to.resolve(f.getFileName().toString()));
        } else if (!f.getFileName().toString().endsWith(".md5")) {
          Files.createLink(to.resolve(f.getFileName().toString()), f);
        }
      }
    }
  }

  /** Deletes a dropped snapshot's checkpoint. */
  public synchronized void drop(long epoch) {
    NamespaceStore view = open.remove(epoch);
    if (view != null) {
      view.close();
    }
    try {
      FileUtils.deleteFully(dir.resolve(Long.toString(epoch)).toFile());
    } catch (IOException e) {
      LOG.warn(
          "Could not delete the namespace checkpoint of the snapshot at epoch {}: {}",
          epoch,
          e.getMessage());
    }
  }

  /**
   * The checkpoint of the snapshot at {@code epoch} is being taken; readers of that snapshot wait
   * for {@code taken} (it never fails).
   */
  public void capturing(long epoch, CompletableFuture<Void> taken) {
    capturing.put(epoch, taken);
    taken.whenComplete((v, e) -> capturing.remove(epoch, taken));
  }

  private NamespaceStore view(SnapshotProto s) {
    CompletableFuture<Void> taken = capturing.get(s.getEpoch());
    if (taken != null) {
      try {
        taken.get(CAPTURE_WAIT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new NamespaceException(
            StatusProto.UNAVAILABLE,
            "the namespace checkpoint of snapshot '"
                + s.getName()
                + "' is still being taken; retry");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new NamespaceException(StatusProto.UNAVAILABLE, "interrupted");
      } catch (ExecutionException e) {
        // it never fails: a failed checkpoint shows as a missing directory below
      }
    }
    return openView(s);
  }

  private synchronized NamespaceStore openView(SnapshotProto s) {
    NamespaceStore v = open.get(s.getEpoch());
    if (v != null) {
      return v;
    }
    Path d = dir.resolve(Long.toString(s.getEpoch()));
    if (!Files.isDirectory(d)) {
      throw new NamespaceException(
          StatusProto.UNAVAILABLE,
          "this meta replica has no namespace checkpoint of snapshot '"
              + s.getName()
              + "' (epoch "
              + s.getEpoch()
              + ") in "
              + dir);
    }
    try {
      v = NamespaceStore.openReadOnly(d);
    } catch (IOException e) {
      throw new NamespaceException(StatusProto.INTERNAL, e.getMessage());
    }
    open.put(s.getEpoch(), v);
    return v;
  }

  /** getattr of a path under /.snapshots. */
  public MetaResponseProto getAttr(NamespaceStore live, GetAttrRequestProto req, Actor actor) {
    Target t = target(live, req.getPath());
    if (t.snapshot == null) {
      return MetaResponseProto.newBuilder()
          .setStatus(StatusProto.OK)
          .setInode(snapshotsDir(live))
          .build();
    }
    if (req.getFileId() != 0) {
      return byId(t, req.getFileId());
    }
    MetaResponseProto r =
        NamespaceQueries.getAttr(
            t.view, GetAttrRequestProto.newBuilder().setPath(t.rest).build(), actor);
    return r.toBuilder().setInode(frozen(r.getInode(), t.snapshot)).build();
  }

  /** An inode of a snapshot by its id (a file handle into /.snapshots/NAME), with its path. */
  private static MetaResponseProto byId(Target t, long fileId) {
    MetaResponseProto r =
        NamespaceQueries.getAttr(
            t.view, GetAttrRequestProto.newBuilder().setFileId(fileId).build(), Actor.CLUSTER);
    String top = "/" + PathResolver.SNAPSHOT_DIR + "/" + t.snapshot.getName();
    String within = r.getPath();
    return r.toBuilder()
        .setInode(frozen(r.getInode(), t.snapshot))
        .setPath(within.isEmpty() ? "" : within.equals("/") ? top : top + within)
        .build();
  }

  /** readdir of a path under /.snapshots (of /.snapshots itself: one directory per snapshot). */
  public MetaResponseProto readDir(NamespaceStore live, ReadDirRequestProto req, Actor actor) {
    Target t = target(live, req.getPath());
    if (t.snapshot == null) {
      int limit =
          req.getLimit() <= 0
              ? NamespaceQueries.DEFAULT_PAGE
              : Math.min(req.getLimit(), NamespaceQueries.MAX_PAGE);
      List<SnapshotProto> all =
          live.snapshots().stream()
              .sorted((a, b) -> a.getName().compareTo(b.getName()))
              .filter(s -> s.getName().compareTo(req.getStartAfter()) > 0)
              .toList();
      ReadDirResponseProto.Builder b =
          ReadDirResponseProto.newBuilder().setMore(all.size() > limit);
      for (SnapshotProto s : all.subList(0, Math.min(limit, all.size()))) {
        b.addEntries(
            DirEntryProto.newBuilder()
                .setName(s.getName())
                .setInode(
                    frozen(
                        view(s).inode(NamespaceView.ROOT_ID).toBuilder()
                            .setMtimeMs(s.getCreatedMs())
                            .build(),
                        s)));
      }
      return MetaResponseProto.newBuilder().setStatus(StatusProto.OK).setEntries(b).build();
    }
    MetaResponseProto r =
        NamespaceQueries.readDir(t.view, req.toBuilder().setPath(t.rest).build(), actor);
    ReadDirResponseProto.Builder b = r.getEntries().toBuilder();
    for (int i = 0; i < b.getEntriesCount(); i++) {
      b.setEntries(
          i, b.getEntries(i).toBuilder().setInode(frozen(b.getEntries(i).getInode(), t.snapshot)));
    }
    return r.toBuilder().setEntries(b).build();
  }

  private record Target(SnapshotProto snapshot, NamespaceStore view, String rest) {}

  private Target target(NamespaceStore live, String path) {
    List<String> parts = PathResolver.components(path);
    if (parts.size() == 1) {
      return new Target(null, null, "/");
    }
    SnapshotProto s = live.snapshot(parts.get(1));
    if (s == null) {
      throw new NamespaceException(
          StatusProto.NOT_FOUND,
          "no snapshot called '" + parts.get(1) + "' (tessera snapshot list shows them)");
    }
    return new Target(s, view(s), "/" + String.join("/", parts.subList(2, parts.size())));
  }

  private static InodeProto snapshotsDir(NamespaceStore live) {
    long newest = live.snapshots().stream().mapToLong(SnapshotProto::getCreatedMs).max().orElse(0);
    return InodeProto.newBuilder()
        .setId(SNAPSHOTS_DIR_ID)
        .setType(FileTypeProto.DIRECTORY)
        .setMode(0555)
        .setMtimeMs(newest)
        .setCtimeMs(newest)
        .setInSnapshot(true)
        .build();
  }

  /**
   * An inode as seen in a snapshot: read-only, read at its epoch, decoded around missing servers.
   */
  private static InodeProto frozen(InodeProto in, SnapshotProto s) {
    InodeProto.Builder b =
        in.toBuilder()
            .setInSnapshot(true)
            .setSnapshotEpoch(s.getEpoch())
            .setMode(in.getMode() & ~0222)
            .setSnapshotMode(in.getMode());
    for (String missing : s.getMissingServersList()) {
      if (in.getLayout().getServersList().contains(missing)
          && !in.getStaleServersList().contains(missing)) {
        b.addStaleServers(missing);
      }
    }
    return b.build();
  }

  @Override
  public synchronized void close() {
    open.values().forEach(NamespaceStore::close);
    open.clear();
  }
}
