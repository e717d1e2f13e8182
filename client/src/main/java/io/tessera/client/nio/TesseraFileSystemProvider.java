package io.tessera.client.nio;

import io.tessera.client.AsyncTesseraFileSystem;
import io.tessera.client.AttributeChange;
import io.tessera.client.ClusterUri;
import io.tessera.client.FileStatus;
import io.tessera.client.Futures;
import io.tessera.client.TesseraByteChannel;
import io.tessera.client.TesseraFile;
import io.tessera.client.VirtualFileSystem;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.ProviderMismatchException;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.spi.FileSystemProvider;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code tessera://HOST:PORT/path} for java.nio: {@code FileSystems.newFileSystem(URI, env)}
 * connects to the cluster whose meta replica is HOST:PORT; {@code env} may give {@code credentials}
 * (a credentials file; else {@code $TESSERA_CREDENTIALS}), {@code meta} (host:port,... to use
 * instead of the URI's), {@code tessera.ec} (K+M for files created) and any client setting.
 * Files.copy, Files.walk, byte channels with positional I/O and force, POSIX attributes and atomic
 * moves work as on a local disk; symbolic links, hard links and watch services do not exist here.
 */
public final class TesseraFileSystemProvider extends FileSystemProvider {
  static final String SCHEME = ClusterUri.SCHEME;

  private final Map<String, TesseraNioFileSystem> open = new ConcurrentHashMap<>();

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
    String authority = authority(uri);
    Map<String, String> settings = new HashMap<>();
    env.forEach((k, v) -> settings.put(k, String.valueOf(v)));
    TesseraNioFileSystem fs;
    try {
      ClusterUri.createOptions(settings); // a malformed tessera.ec is refused now
      AsyncTesseraFileSystem client =
          AsyncTesseraFileSystem.connect(ClusterUri.clientConfig(uri, settings, "nio"));
      Map<String, String> kept = Map.copyOf(settings);
      fs = new TesseraNioFileSystem(this, authority, client, () -> ClusterUri.createOptions(kept));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    if (open.putIfAbsent(authority, fs) != null) {
      fs.files().close();
      throw new FileSystemAlreadyExistsException(uri.toString());
    }
    return fs;
  }

  @Override
  public FileSystem getFileSystem(URI uri) {
    TesseraNioFileSystem fs = open.get(authority(uri));
    if (fs == null) {
      throw new FileSystemNotFoundException(
          uri + ": connect first with FileSystems.newFileSystem(uri, env)");
    }
    return fs;
  }

  @Override
  public Path getPath(URI uri) {
    return getFileSystem(uri).getPath(uri.getPath() == null ? "/" : uri.getPath());
  }

  void closed(TesseraNioFileSystem fs) {
    open.remove(fs.authority(), fs);
  }

  private static String authority(URI uri) {
    if (!SCHEME.equalsIgnoreCase(uri.getScheme())) {
      throw new IllegalArgumentException(uri + " is not a " + SCHEME + ":// URI");
    }
    return uri.getAuthority() == null ? "" : uri.getAuthority();
  }

  static TesseraPath path(Path p) {
    if (!(p instanceof TesseraPath t)) {
      throw new ProviderMismatchException(p + " is not a path of a Tessera file system");
    }
    return t;
  }

  static VirtualFileSystem files(Path p) {
    return ((TesseraNioFileSystem) path(p).getFileSystem()).files();
  }

  /** Waits for {@code f}, turning a refusal into the java.nio exception for {@code p}. */
  static <T> T call(CompletableFuture<T> f, Path p) throws IOException {
    return call(f, p, null);
  }

  private static <T> T call(CompletableFuture<T> f, Path p, Path other) throws IOException {
    try {
      return Futures.get(f);
    } catch (TesseraException e) {
      throw NioErrors.translate(e, p.toString(), other == null ? null : other.toString());
    }
  }

  private static FileStatus statOrNull(Path p) throws IOException {
    try {
      return Futures.get(files(p).stat(path(p).clusterPath()));
    } catch (TesseraException e) {
      if (e.status() == StatusProto.NOT_FOUND || e.status() == StatusProto.NOT_DIRECTORY) {
        return null;
      }
      throw NioErrors.translate(e, p.toString(), null);
    }
  }

  @Override
  public SeekableByteChannel newByteChannel(
      Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    return newFileChannel(path, options, attrs);
  }

  @Override
  public FileChannel newFileChannel(
      Path p, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    boolean append = options.contains(StandardOpenOption.APPEND);
    boolean write = append || options.contains(StandardOpenOption.WRITE);
    boolean read = options.contains(StandardOpenOption.READ) || !write;
    TesseraFile file = opened(p, options, attrs);
    try {
      FileChannel ch =
          file.newByteChannel(new TesseraByteChannel.Access(read, write, append, true));
      return append ? ch.position(file.size()) : ch;
    } catch (RuntimeException e) {
      file.close();
      throw e;
    }
  }

  /** Read through the client's read-ahead stream, not a channel's one call per buffer. */
  @Override
  public InputStream newInputStream(Path p, OpenOption... options) throws IOException {
    for (OpenOption o : options) {
      if (o == StandardOpenOption.APPEND || o == StandardOpenOption.WRITE) {
        throw new UnsupportedOperationException("'" + o + "' not allowed for an input stream");
      }
    }
    TesseraFile file = open(p);
    return new FilterInputStream(file.newInputStream(0)) {
      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        return in.read(b, off, len);
      }

      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          file.close();
        }
      }
    };
  }

  /**
   * Written through the client's striped write-behind stream: whole stripes in flight, not one
   * synchronous write per buffer as a channel would.
   */
  @Override
  public OutputStream newOutputStream(Path p, OpenOption... options) throws IOException {
    Set<OpenOption> opts = new java.util.HashSet<>(Set.of(options));
    if (opts.isEmpty()) {
      opts.addAll(Set.of(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING));
    }
    if (opts.contains(StandardOpenOption.READ)) {
      throw new IllegalArgumentException("READ not allowed for an output stream");
    }
    opts.add(StandardOpenOption.WRITE);
    TesseraFile file = opened(p, opts);
    OutputStream out =
        file.newOutputStream(opts.contains(StandardOpenOption.APPEND) ? file.size() : 0);
    return new FilterOutputStream(out) {
      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
      }

      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          file.close();
        }
      }
    };
  }

  /** The file {@code options} open: created, or opened, and cut to nothing if asked. */
  private static TesseraFile opened(
      Path p, Set<? extends OpenOption> options, FileAttribute<?>... attrs) throws IOException {
    boolean append = options.contains(StandardOpenOption.APPEND);
    boolean write = append || options.contains(StandardOpenOption.WRITE);
    if (append && options.contains(StandardOpenOption.READ)) {
      throw new IllegalArgumentException("READ and APPEND cannot be combined");
    }
    if (append && options.contains(StandardOpenOption.TRUNCATE_EXISTING)) {
      throw new IllegalArgumentException("APPEND and TRUNCATE_EXISTING cannot be combined");
    }
    TesseraFile file;
    if (write && options.contains(StandardOpenOption.CREATE_NEW)) {
      file = create(p, attrs);
    } else if (write && options.contains(StandardOpenOption.CREATE)) {
      FileStatus existing = statOrNull(p);
      if (existing != null && existing.directory()) {
        throw new java.nio.file.FileSystemException(p.toString(), null, "Is a directory");
      }
      file =
          existing == null ? createOrOpen(p, attrs) : call(files(p).open(path(p).clusterPath()), p);
    } else {
      file = open(p);
    }
    try {
      if (write && options.contains(StandardOpenOption.TRUNCATE_EXISTING) && file.size() > 0) {
        file.truncate(0);
      }
      return file;
    } catch (IOException | RuntimeException e) {
      file.close();
      throw e;
    }
  }

  private static TesseraFile open(Path p) throws IOException {
    try {
      return Futures.get(files(p).open(path(p).clusterPath()));
    } catch (TesseraException e) {
      if (e.status() == StatusProto.IS_DIRECTORY) {
        throw new java.nio.file.FileSystemException(p.toString(), null, "Is a directory");
      }
      throw NioErrors.translate(e, p.toString(), null);
    }
  }

  private static TesseraFile create(Path p, FileAttribute<?>... attrs) throws IOException {
    TesseraPath t = path(p);
    TesseraNioFileSystem nfs = (TesseraNioFileSystem) t.getFileSystem();
    requireParentDirectory(p);
    return call(
        nfs.files().create(t.clusterPath(), nfs.createOptions().mode(mode(attrs, 0644))), p);
  }

  /** CREATE without CREATE_NEW: another client may create the file meanwhile; then it is opened. */
  private static TesseraFile createOrOpen(Path p, FileAttribute<?>... attrs) throws IOException {
    try {
      return create(p, attrs);
    } catch (FileAlreadyExistsException e) {
      return open(p);
    }
  }

  private static void requireParentDirectory(Path p) throws IOException {
    Path parent = p.toAbsolutePath().getParent();
    if (parent == null) {
      return;
    }
    FileStatus ps = statOrNull(parent);
    if (ps == null) {
      throw new java.nio.file.NoSuchFileException(p.toString());
    }
    if (!ps.directory()) {
      throw new java.nio.file.NoSuchFileException(
          p.toString(), null, parent + " is not a directory");
    }
  }

  private static int mode(FileAttribute<?>[] attrs, int fallback) {
    for (FileAttribute<?> a : attrs) {
      if (a.name().equals("posix:permissions") && a.value() instanceof Set<?> s) {
        @SuppressWarnings("unchecked")
        Set<PosixFilePermission> perms = (Set<PosixFilePermission>) s;
        return TesseraFileAttributes.mode(perms);
      }
      throw new UnsupportedOperationException("attribute " + a.name() + " cannot be set at create");
    }
    return fallback;
  }

  @Override
  public DirectoryStream<Path> newDirectoryStream(
      Path dir, DirectoryStream.Filter<? super Path> filter) throws IOException {
    FileStatus st = call(files(dir).stat(path(dir).clusterPath()), dir);
    if (!st.directory()) {
      throw NioErrors.notDirectory(dir.toString());
    }
    return new DirectoryListing(dir, filter);
  }

  @Override
  public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
    TesseraPath t = path(dir);
    if (t.toAbsolutePath().getParent() == null) {
      throw new FileAlreadyExistsException(dir.toString());
    }
    requireParentDirectory(dir);
    call(
        files(dir)
            .mkdir(
                t.clusterPath(),
                false,
                io.tessera.client.CreateOptions.defaults().mode(mode(attrs, 0755))),
        dir);
  }

  @Override
  public void delete(Path p) throws IOException {
    if (path(p).toAbsolutePath().getParent() == null) {
      throw new java.nio.file.FileSystemException(p.toString(), null, "the root cannot be deleted");
    }
    call(files(p).delete(path(p).clusterPath(), false), p);
  }

  /** Copies bytes and, with COPY_ATTRIBUTES, the permissions and modification time. */
  @Override
  public void copy(Path source, Path target, CopyOption... options) throws IOException {
    boolean replace = Set.of(options).contains(StandardCopyOption.REPLACE_EXISTING);
    FileStatus from = call(files(source).stat(path(source).clusterPath()), source);
    FileStatus to = statOrNull(target);
    if (to != null) {
      if (!replace) {
        throw new FileAlreadyExistsException(target.toString());
      }
      if (path(source).clusterPath().equals(path(target).clusterPath())) {
        return;
      }
      delete(target);
    }
    if (from.directory()) {
      createDirectory(target);
    } else {
      try (FileChannel in = newFileChannel(source, Set.of(StandardOpenOption.READ));
          FileChannel out =
              newFileChannel(
                  target, Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW))) {
        long done = 0;
        long size = in.size();
        while (done < size) {
          done += in.transferTo(done, size - done, out);
        }
      }
    }
    if (Set.of(options).contains(StandardCopyOption.COPY_ATTRIBUTES)) {
      call(
          files(target)
              .changeAttributes(
                  path(target).clusterPath(),
                  0,
                  new AttributeChange(from.mode() & 07777, null, null, from.modified())),
          target);
    }
  }

  /** Renames atomically (ATOMIC_MOVE or not: a rename is always atomic here). */
  @Override
  public void move(Path source, Path target, CopyOption... options) throws IOException {
    boolean replace = Set.of(options).contains(StandardCopyOption.REPLACE_EXISTING);
    String s = path(source).clusterPath();
    String t = path(target).clusterPath();
    call(files(source).stat(s), source);
    if (s.equals(t)) {
      return;
    }
    FileStatus existing = statOrNull(target);
    if (existing != null && !replace) {
      throw new FileAlreadyExistsException(target.toString());
    }
    if (existing == null) {
      requireParentDirectory(target);
    }
    call(files(source).rename(s, t, replace), source, target);
  }

  @Override
  public boolean isSameFile(Path a, Path b) throws IOException {
    if (a.equals(b)) {
      return true;
    }
    if (!(b instanceof TesseraPath) || a.getFileSystem() != b.getFileSystem()) {
      return false;
    }
    FileStatus sa = call(files(a).stat(path(a).clusterPath()), a);
    FileStatus sb = call(files(b).stat(path(b).clusterPath()), b);
    return sa.fileId() == sb.fileId();
  }

  @Override
  public boolean isHidden(Path p) {
    Path name = p.getFileName();
    return name != null && name.toString().startsWith(".");
  }

  @Override
  public FileStore getFileStore(Path p) throws IOException {
    call(files(p).stat(path(p).clusterPath()), p);
    return new TesseraFileStore((TesseraNioFileSystem) path(p).getFileSystem());
  }

  /**
   * Checks that the file exists, and that its mode bits grant the access to someone (the cluster
   * checks the caller itself on every request).
   */
  @Override
  public void checkAccess(Path p, AccessMode... modes) throws IOException {
    FileStatus st = call(files(p).stat(path(p).clusterPath()), p);
    for (AccessMode m : modes) {
      int bits =
          switch (m) {
            case READ -> 0444;
            case WRITE -> 0222;
            case EXECUTE -> 0111;
          };
      if ((st.mode() & bits) == 0) {
        throw new java.nio.file.AccessDeniedException(p.toString(), null, "mode lacks " + m);
      }
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public <V extends FileAttributeView> V getFileAttributeView(
      Path p, Class<V> type, LinkOption... options) {
    if (type == BasicFileAttributeView.class || type == PosixFileAttributeView.class) {
      return (V) new PosixView(p);
    }
    return null;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <A extends BasicFileAttributes> A readAttributes(
      Path p, Class<A> type, LinkOption... options) throws IOException {
    if (type != BasicFileAttributes.class && type != PosixFileAttributes.class) {
      throw new UnsupportedOperationException(type.getName() + " is not kept by Tessera");
    }
    return (A) new TesseraFileAttributes(call(files(p).stat(path(p).clusterPath()), p));
  }

  @Override
  public Map<String, Object> readAttributes(Path p, String attributes, LinkOption... options)
      throws IOException {
    return new PosixView(p).readByName(attributes);
  }

  @Override
  public void setAttribute(Path p, String attribute, Object value, LinkOption... options)
      throws IOException {
    new PosixView(p).setByName(attribute, value);
  }
}
