package io.tessera.client;

import io.tessera.client.admin.ClusterAdmin;
import io.tessera.common.config.Config;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.TransportSecurity;
import io.tessera.common.status.TesseraException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The Tessera file system for ordinary blocking code.
 *
 * <pre>
 * try (TesseraFileSystem fs =
 *     TesseraFileSystem.connect("127.0.0.1:9860", Credentials.load(Path.of("me.credentials")))) {
 *   fs.mkdirs("/results");
 *   try (OutputStream out = fs.create("/results/a.dat", CreateOptions.defaults())) { ... }
 *   try (InputStream in = fs.open("/results/a.dat")) { ... }
 * }
 * </pre>
 *
 * Every method throws {@link io.tessera.common.status.TesseraException} (an IOException with a
 * status code) when the cluster refuses the request; its message says what to do.
 */
public final class TesseraFileSystem implements Closeable {
  private final AsyncTesseraFileSystem async;

  TesseraFileSystem(AsyncTesseraFileSystem async) {
    this.async = async;
  }

  /**
   * Connects to the meta replicas at {@code metaAddresses} (host:port, comma-separated), proving
   * who it is with {@code credentials} ({@link Credentials#load} reads a credentials file).
   */
  public static TesseraFileSystem connect(String metaAddresses, Credentials credentials)
      throws IOException {
    return AsyncTesseraFileSystem.connect(
            Config.of(Map.of(ClientConfigKeys.Cluster.META.key(), metaAddresses)), credentials)
        .blocking();
  }

  /**
   * Connects with full client configuration ({@link ClientConfigKeys}); the credentials file is
   * {@code tessera.security.credentials}.
   *
   * @throws IOException when the credentials cannot be read
   */
  public static TesseraFileSystem connect(Config config) throws IOException {
    return AsyncTesseraFileSystem.connect(config).blocking();
  }

  /** Connects with full client configuration and a transport already set up (its credentials). */
  public static TesseraFileSystem connect(Config config, TransportSecurity security) {
    return AsyncTesseraFileSystem.connect(config, security).blocking();
  }

  /** Connects with full client configuration, proving who it is with {@code credentials}. */
  public static TesseraFileSystem connect(Config config, Credentials credentials)
      throws IOException {
    return AsyncTesseraFileSystem.connect(config, credentials).blocking();
  }

  /** The asynchronous API of the same client. */
  public AsyncTesseraFileSystem async() {
    return async;
  }

  /** Creates a file and opens it for positional I/O. */
  public TesseraFile createFile(String path, CreateOptions options) throws IOException {
    return Futures.get(async.create(path, options));
  }

  /** Creates a file and returns a buffered stream writing it from the start. */
  public OutputStream create(String path, CreateOptions options) throws IOException {
    return createFile(path, options).newOwningOutputStream(0);
  }

  /**
   * Renews the lease of a partial copy ({@link CreateOptions#partial}) for {@code lease} from now,
   * so the cluster keeps it while its writer lives.
   */
  public void renewPartial(TesseraFile file, Duration lease) throws IOException {
    Futures.get(async.renewPartial(file.fileId(), lease));
  }

  /** Opens an existing file for positional I/O. */
  public TesseraFile openFile(String path) throws IOException {
    return Futures.get(async.open(path));
  }

  /**
   * Opens an existing file for positional I/O, declaring how it will be shared ({@link
   * OpenOptions#sharing}): refused (BUSY, naming who holds what) when another client's declared
   * intent conflicts.
   */
  public TesseraFile openFile(String path, OpenOptions options) throws IOException {
    TesseraFile f = openFile(path);
    if (options.sharing() != null) {
      try {
        f.declare(options.sharing());
      } catch (IOException | RuntimeException e) {
        f.close();
        throw e;
      }
    }
    return f;
  }

  /** Who holds region locks and sharing intents of the file, as the lock home knows them. */
  public List<RegionHolder> regionHolders(String path) throws IOException {
    return Futures.get(async.regionHolders(path));
  }

  /** Opens an existing file as a buffered stream with read-ahead. */
  public InputStream open(String path) throws IOException {
    return openFile(path).newInputStream(0);
  }

  /**
   * Writes a log file's merged index as one flattened index, so opens read one index (its last
   * writer's close does it anyway); nothing for a striped file. Returns its attributes after.
   */
  public FileStatus flatten(String path) throws IOException {
    return Futures.get(async.flatten(path));
  }

  /** Attributes of a file or directory. */
  public FileStatus stat(String path) throws IOException {
    return Futures.get(async.stat(path));
  }

  /** Whether the path names a file or directory. */
  public boolean exists(String path) throws IOException {
    try {
      stat(path);
      return true;
    } catch (TesseraException.NotFoundException e) {
      return false;
    }
  }

  /** Every entry of a directory, by name (fetched page by page). */
  public List<FileStatus> list(String path) throws IOException {
    List<FileStatus> all = new ArrayList<>();
    String after = "";
    DirectoryPage page;
    do {
      page = Futures.get(async.list(path, after, 0));
      all.addAll(page.entries());
      after = page.lastName();
    } while (page.more());
    return all;
  }

  /** Counters of this client's I/O: lock refusals, degraded writes and reads. */
  public IoCounters ioCounters() {
    return async.ioCounters();
  }

  /** Creates one directory; its parent must exist. */
  public FileStatus mkdir(String path) throws IOException {
    return Futures.get(async.mkdir(path, false, null));
  }

  /** Creates a directory and any missing ancestors; an existing directory is fine. */
  public FileStatus mkdirs(String path) throws IOException {
    return Futures.get(async.mkdir(path, true, null));
  }

  /**
   * Creates a directory whose new files default to {@code layout} (null: inherited); with {@code
   * parents}, missing ancestors too and an existing directory is fine.
   */
  public FileStatus mkdir(String path, boolean parents, CreateOptions layout) throws IOException {
    return Futures.get(async.mkdir(path, parents, layout));
  }

  /** Creates directories whose new files default to {@code layout}. */
  public FileStatus mkdirs(String path, CreateOptions layout) throws IOException {
    return Futures.get(async.mkdir(path, true, layout));
  }

  /**
   * Renames atomically; an existing target file (or empty directory) is replaced, as POSIX rename
   * does.
   */
  public void rename(String source, String target) throws IOException {
    Futures.get(async.rename(source, target));
  }

  /**
   * Renames atomically; with {@code replace} false an existing target is left alone and the rename
   * fails with {@link io.tessera.common.status.TesseraException.AlreadyExistsException}.
   */
  public void rename(String source, String target, boolean replace) throws IOException {
    Futures.get(async.rename(source, target, replace));
  }

  /** Removes a file or an empty directory, or with {@code recursive} a whole tree. */
  public void delete(String path, boolean recursive) throws IOException {
    Futures.get(async.delete(path, recursive));
  }

  /** Cuts a file to {@code size} bytes. */
  public void truncate(String path, long size) throws IOException {
    Futures.get(async.truncate(path, size));
  }

  /** Sets POSIX permission bits (like chmod). */
  public FileStatus setMode(String path, int mode) throws IOException {
    return Futures.get(async.setAttributes(path, mode, null));
  }

  /** Sets the modification time (like touch -m -d). */
  public FileStatus setModified(String path, Instant modified) throws IOException {
    return Futures.get(async.setAttributes(path, null, modified));
  }

  /** Administration of the cluster: servers, snapshots, recovery, fsck. */
  /** Changes mode, owner, group or modification time (the change's null fields stay). */
  public FileStatus setAttributes(String path, AttributeChange change) throws IOException {
    return Futures.get(async.changeAttributes(path, 0, change));
  }

  public ClusterAdmin admin() {
    return async.admin();
  }

  @Override
  public void close() {
    async.close();
  }
}
