package io.tessera.meta.ratis;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.SnapshotRetentionPolicy;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.FileListSnapshotInfo;
import org.apache.ratis.util.FileUtils;

/**
 * Ratis snapshots as RocksDB checkpoints: {@code <sm dir>/checkpoint-<term>-<index>/}, one
 * directory of hard-linked files each, with the namespace checkpoints of the file-system snapshots
 * in the catalog at that index under {@value #FS_SNAPSHOTS}/&lt;epoch&gt;/. Ratis ships the files
 * to a follower that fell behind the purged log and replaces the follower's sm dir with them; the
 * live namespace store therefore lives outside the sm dir and is rebuilt from the newest
 * checkpoint.
 */
final class CheckpointSnapshotStorage implements StateMachineStorage {
  private static final Pattern NAME = Pattern.compile("checkpoint-(\\d+)-(\\d+)");
  private static final int KEEP = 2;

  /** Subdirectory of a checkpoint holding the file-system snapshots' namespace checkpoints. */
  static final String FS_SNAPSHOTS = "fs-snapshots";

  private volatile File smDir;

  /**
   * The newest checkpoint as Ratis sees it, kept rather than listed: Ratis asks for it on every
   * applied entry and every append a follower receives, and listing every file of a checkpoint (the
   * snapshots' namespaces included) each time was a visible share of the CPU.
   */
  private volatile SnapshotInfo latest;

  @Override
  public void init(RaftStorage storage) {
    smDir = storage.getStorageDir().getStateMachineDir();
    refresh();
  }

  /** Looks again for the newest checkpoint (after one was taken, installed or deleted). */
  synchronized void refresh() {
    latest = scanLatest();
  }

  Path newCheckpointDir(long term, long index) {
    return smDir.toPath().resolve("checkpoint-" + term + "-" + index);
  }

  Path tmpCheckpointDir(long term, long index) {
    return smDir.toPath().resolve(".tmp-checkpoint-" + term + "-" + index);
  }

  /** The newest complete checkpoint directory, or null. */
  Path latestDir() {
    File[] dirs =
        smDir == null
            ? null
            : smDir.listFiles(f -> f.isDirectory() && NAME.matcher(f.getName()).matches());
    if (dirs == null || dirs.length == 0) {
      return null;
    }
    return Stream.of(dirs)
        .max(Comparator.comparingLong(f -> termIndexOf(f.toPath()).getIndex()))
        .map(File::toPath)
        .orElse(null);
  }

  static TermIndex termIndexOf(Path dir) {
    Matcher m = NAME.matcher(dir.getFileName().toString());
    if (!m.matches()) {
      throw new IllegalArgumentException(dir + " is not a checkpoint directory");
    }
    return TermIndex.valueOf(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)));
  }

  @Override
  public SnapshotInfo getLatestSnapshot() {
    return latest;
  }

  private SnapshotInfo scanLatest() {
    Path dir = latestDir();
    if (dir == null) {
      return null;
    }
    List<FileInfo> files = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(p -> Files.isRegularFile(p) && !p.getFileName().toString().endsWith(".md5"))
          .sorted()
          .forEach(p -> files.add(new FileInfo(p.toAbsolutePath(), null)));
    } catch (IOException e) {
      return null;
    }
    return new FileListSnapshotInfo(files, termIndexOf(dir));
  }

  @Override
  public void format() {}

  @Override
  public void cleanupOldSnapshots(SnapshotRetentionPolicy policy) throws IOException {
    File[] dirs = smDir.listFiles(f -> f.isDirectory() && NAME.matcher(f.getName()).matches());
    if (dirs == null || dirs.length <= KEEP) {
      return;
    }
    List<File> sorted = new ArrayList<>(List.of(dirs));
    sorted.sort(Comparator.comparingLong(f -> termIndexOf(f.toPath()).getIndex()));
    for (File old : sorted.subList(0, sorted.size() - KEEP)) {
      FileUtils.deleteFully(old);
    }
    refresh();
  }
}
