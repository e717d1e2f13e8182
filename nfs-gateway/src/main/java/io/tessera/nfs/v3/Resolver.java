package io.tessera.nfs.v3;

import io.tessera.client.FileStatus;
import io.tessera.client.VirtualFileSystem;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import io.tessera.nfs.export.Export;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Turns file handles into nodes and names into handles, through the meta group: a handle names an
 * inode by id, whose current path the meta group finds from the parents inodes record, so handles
 * survive renames, gateway restarts, and other gateways.
 */
public final class Resolver {
  private static final String SNAPSHOTS = VirtualFileSystem.SNAPSHOTS;

  /** Inodes an attribute cache holds at most. */
  private static final int CACHED = 65_536;

  private final VirtualFileSystem fs;
  private final AttributeCache cache;
  private final Map<Long, String> snapshotNames = new ConcurrentHashMap<>();
  private final Map<String, Long> snapshotEpochs = new ConcurrentHashMap<>();

  /**
   * @param attributeAge how long resolved attributes serve further calls (0: every call asks the
   *     meta group)
   */
  public Resolver(VirtualFileSystem fs, Duration attributeAge) {
    this.fs = fs;
    this.cache = new AttributeCache(attributeAge, CACHED, System::nanoTime);
  }

  /** The gateway's own changes, told to its attribute cache. */
  AttributeCache cache() {
    return cache;
  }

  /**
   * The node a handle names, for a call's checks and paths: from the attribute cache when it holds
   * it; STALE once its file is gone or left the export.
   */
  public Node resolve(FileHandle h, Export export) throws NfsError {
    return resolve(h, export, false);
  }

  /** The node with attributes no own change has made old since: what GETATTR answers. */
  public Node resolveUnchanged(FileHandle h, Export export) throws NfsError {
    return resolve(h, export, true);
  }

  private Node resolve(FileHandle h, Export export, boolean unchangedOnly) throws NfsError {
    FileStatus s = cache.get(h, unchangedOnly);
    if (s == null) {
      s = fetch(h);
      cache.put(h, s);
    }
    if (h.kind() != FileHandle.SNAPSHOTS && s.created().toEpochMilli() != h.born()) {
      throw new NfsError(
          Nfs3.ERR_STALE, "file " + h.fileId() + " is not the one this handle named");
    }
    if (s.path().isEmpty() || !export.covers(s.path())) {
      throw new NfsError(
          Nfs3.ERR_STALE, "file " + h.fileId() + " is no longer under export " + export.path());
    }
    return new Node(h, s);
  }

  private FileStatus fetch(FileHandle h) throws NfsError {
    try {
      return Services.await(
          switch (h.kind()) {
            case FileHandle.SNAPSHOTS -> fs.stat(SNAPSHOTS);
            case FileHandle.SNAPSHOT -> fs.statById(h.fileId(), snapshotName(h.epoch()));
            default -> fs.statById(h.fileId(), null);
          });
    } catch (NfsError e) {
      if (e.status() == Nfs3.ERR_NOENT) {
        throw new NfsError(Nfs3.ERR_STALE, "file " + h.fileId() + " was removed");
      }
      throw e;
    }
  }

  /** The root of an export, as MOUNT hands it out (or a directory below it). */
  public Node root(Export export, String path) throws NfsError {
    return byPath(export, path);
  }

  /** The entry {@code name} of directory {@code dir}, "." and ".." included. */
  public Node lookup(Export export, Node dir, String name) throws NfsError {
    if (!dir.directory()) {
      throw new NfsError(Nfs3.ERR_NOTDIR, dir.path() + " is not a directory");
    }
    if (name.equals(".")) {
      return dir;
    }
    if (name.equals("..")) {
      if (dir.path().equals(export.path())) {
        return dir;
      }
      return byPath(export, dir.path().substring(0, Math.max(1, dir.path().lastIndexOf('/'))));
    }
    checkName(name);
    return byPath(export, child(dir, name));
  }

  /** The path of entry {@code name} in {@code dir}. */
  public static String child(Node dir, String name) {
    return dir.path().equals("/") ? "/" + name : dir.path() + "/" + name;
  }

  /** Names a client may not use: empty, with a slash, too long, or NUL. */
  public static void checkName(String name) throws NfsError {
    if (name.isEmpty() || name.indexOf('/') >= 0 || name.indexOf('\0') >= 0) {
      throw new NfsError(Nfs3.ERR_INVAL, "'" + name + "' is not a file name");
    }
    if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > Nfs3.MAX_NAME) {
      throw new NfsError(Nfs3.ERR_NAMETOOLONG, "a name is at most " + Nfs3.MAX_NAME + " bytes");
    }
  }

  /** A node for a path of the export: the handle it gets from its attributes. */
  public Node byPath(Export export, String path) throws NfsError {
    if (!export.covers(path)) {
      throw new NfsError(Nfs3.ERR_ACCES, path + " is outside export " + export.path());
    }
    return node(export, Services.await(fs.stat(path)));
  }

  /** The node of attributes the namespace returned for a path. */
  public Node node(Export export, FileStatus s) throws NfsError {
    String p = s.path();
    long born = s.created().toEpochMilli();
    if (p.equals(SNAPSHOTS)) {
      return new Node(new FileHandle(export.id(), FileHandle.SNAPSHOTS, 0, s.fileId(), 0), s);
    }
    String snapshot = snapshotOf(p);
    if (snapshot != null) {
      long epoch = snapshotEpoch(snapshot);
      return new Node(new FileHandle(export.id(), FileHandle.SNAPSHOT, epoch, s.fileId(), born), s);
    }
    return new Node(new FileHandle(export.id(), FileHandle.LIVE, 0, s.fileId(), born), s);
  }

  /** The snapshot a path lies in (/.snapshots/NAME/...), or null for the live namespace. */
  public static String snapshotOf(String path) {
    if (!path.startsWith(SNAPSHOTS + "/")) {
      return null;
    }
    String rest = path.substring(SNAPSHOTS.length() + 1);
    int slash = rest.indexOf('/');
    return slash < 0 ? rest : rest.substring(0, slash);
  }

  String snapshotName(long epoch) throws NfsError {
    String name = snapshotNames.get(epoch);
    if (name == null) {
      refreshSnapshots();
      name = snapshotNames.get(epoch);
    }
    if (name == null) {
      throw new NfsError(Nfs3.ERR_STALE, "the snapshot of epoch " + epoch + " was deleted");
    }
    return name;
  }

  private long snapshotEpoch(String name) throws NfsError {
    Long epoch = snapshotEpochs.get(name);
    if (epoch == null) {
      refreshSnapshots();
      epoch = snapshotEpochs.get(name);
    }
    if (epoch == null) {
      throw NfsError.of(new TesseraException(StatusProto.NOT_FOUND, "no snapshot " + name));
    }
    return epoch;
  }

  private void refreshSnapshots() throws NfsError {
    for (SnapshotInfo s : Services.await(fs.snapshots())) {
      snapshotNames.put(s.epoch(), s.name());
      snapshotEpochs.put(s.name(), s.epoch());
    }
  }
}
