package io.tessera.client;

import io.tessera.client.admin.SnapshotInfo;
import io.tessera.common.proto.ActorProto;
import io.tessera.common.security.Identity;
import java.io.Closeable;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The file system as every front end sees it (the NFS gateway, the console, the Hadoop adapter, the
 * java.nio provider): the namespace by path or by inode number, files opened for positional I/O,
 * and snapshot views ({@value #SNAPSHOTS}{@code /NAME/...} read-only paths, or a snapshot name
 * beside an inode number). Every call is asynchronous and fails with a {@link
 * io.tessera.common.status.TesseraException} whose status says what went wrong.
 *
 * <p>Closing it closes the client's connections (a view {@link #actingFor} returns has none).
 *
 * <p>Administration (servers, snapshots taken and restored, QoS, recovery) is {@link
 * io.tessera.client.admin.ClusterAdmin}'s; a front end needing it asks for it by name.
 */
public interface VirtualFileSystem extends Closeable {
  /** Where snapshots are seen, read-only: {@code /.snapshots/NAME/path}. */
  String SNAPSHOTS = "/.snapshots";

  /** Who this client is (its credentials'), or null without security. */
  Identity identity();

  /**
   * The same file system acting for {@code user}: namespace requests are checked and done as that
   * user. Only a trusted proxy may (an NFS gateway's credentials); anyone else is refused.
   */
  VirtualFileSystem actingFor(ActorProto user);

  /** Attributes of a file or directory. */
  CompletableFuture<FileStatus> stat(String path);

  /**
   * Attributes of the file or directory with this inode number, wherever it is now, or as {@code
   * snapshot} has it (null: the live tree).
   */
  CompletableFuture<FileStatus> statById(long fileId, String snapshot);

  /** One page of a directory's entries, by name, after {@code startAfter} ("" for the first). */
  CompletableFuture<DirectoryPage> list(String path, String startAfter, int limit);

  /** Creates a regular file and opens it; EXISTS unless {@link CreateOptions#overwrite}. */
  CompletableFuture<TesseraFile> create(String path, CreateOptions options);

  /**
   * Creates a regular file without opening it and answers its attributes as created: one meta call
   * for a front end that hands out a handle (an NFS CREATE), where a create and then a stat were
   * two. EXISTS unless {@link CreateOptions#overwrite}.
   */
  CompletableFuture<FileStatus> createEntry(String path, CreateOptions options);

  /** Opens an existing regular file (IS_DIRECTORY for a directory). */
  CompletableFuture<TesseraFile> open(String path);

  /** Opens a regular file by its inode number (see {@link #statById}). */
  CompletableFuture<TesseraFile> openById(long fileId, String snapshot);

  /**
   * Creates a directory; with {@code parents} its missing ancestors too, an existing directory
   * being fine. {@code defaultLayout} (may be null) is inherited by files created below.
   */
  CompletableFuture<FileStatus> mkdir(String path, boolean parents, CreateOptions defaultLayout);

  /**
   * Renames atomically; an existing target is replaced by POSIX rules if {@code replace}, else
   * EXISTS and nothing changes.
   */
  CompletableFuture<Void> rename(String source, String target, boolean replace);

  /** Removes a file, or a directory: an empty one, or with {@code recursive} a whole tree. */
  CompletableFuture<Void> delete(String path, boolean recursive);

  /** Cuts or extends (with zeros) the file at {@code path} to {@code size} bytes. */
  CompletableFuture<Void> truncate(String path, long size);

  /**
   * Changes attributes of the file at {@code path}, or (with a null path) of the file {@code
   * fileId} wherever it is; with both, the file at path must still be that file.
   */
  CompletableFuture<FileStatus> changeAttributes(String path, long fileId, AttributeChange change);

  /** Who holds region locks and sharing intents of the file, as the lock home knows them. */
  CompletableFuture<List<RegionHolder>> regionHolders(String path);

  /** The cluster's space: the sum over its data servers in service. */
  CompletableFuture<Capacity> capacity();

  /**
   * The snapshots whose views are under {@value #SNAPSHOTS}, oldest first (their epochs name them
   * beside inode numbers).
   */
  CompletableFuture<List<SnapshotInfo>> snapshots();

  /** Closes the client's connections; open files stop working. */
  @Override
  void close();

  /**
   * Checks and normalises an absolute path: repeated and trailing slashes are dropped.
   *
   * @throws IllegalArgumentException for a relative or empty path
   */
  static String normalize(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new IllegalArgumentException("path '" + path + "' must be absolute (start with /)");
    }
    StringBuilder b = new StringBuilder();
    for (String c : path.split("/")) {
      if (!c.isEmpty()) {
        b.append('/').append(c);
      }
    }
    return b.length() == 0 ? "/" : b.toString();
  }
}
