package io.tessera.hadoop;

import io.tessera.client.AsyncTesseraFileSystem;
import io.tessera.client.AttributeChange;
import io.tessera.client.Capacity;
import io.tessera.client.ClusterUri;
import io.tessera.client.CreateOptions;
import io.tessera.client.DirectoryPage;
import io.tessera.client.Futures;
import io.tessera.client.Owner;
import io.tessera.client.TesseraFile;
import io.tessera.client.VirtualFileSystem;
import io.tessera.common.proto.StatusProto;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonPathCapabilities;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Progressable;

/**
 * Tessera as a Hadoop {@link FileSystem}: {@code tessera://HOST:PORT/path}, HOST:PORT a meta
 * replica (or any name, with {@code fs.tessera.meta=host:port,...}). Credentials come from {@code
 * fs.tessera.credentials} (else {@code $TESSERA_CREDENTIALS}); files are created with their
 * directory's layout unless {@code tessera.ec=K+M} says otherwise; every other {@code tessera.*}
 * key is a client setting.
 *
 * <p>Semantics, as {@code contract/tessera.xml} states them for Hadoop's contract tests: a
 * hierarchical namespace with atomic rename and delete, positioned and vectored reads, {@code
 * hflush}/{@code hsync} as Tessera's sync (durable on every server of the file), append by one
 * writer at a time (concurrent appenders are not serialised), block size = a stripe's data bytes,
 * block locations = the data servers of each stripe's data units.
 */
public class TesseraHadoopFileSystem extends FileSystem {
  /** Hadoop settings that name the cluster and the credentials, beside the URI. */
  public static final String META_KEY = "fs.tessera.meta";

  public static final String CREDENTIALS_KEY = "fs.tessera.credentials";

  private static final int LIST_PAGE = 1000;

  private URI uri;
  private Path workingDir;
  private AsyncTesseraFileSystem client;
  private VirtualFileSystem fs;
  private Map<String, String> settings;
  private BlockLocations locations;
  private final AdapterStatistics adapterStatistics = new AdapterStatistics();

  @Override
  public String getScheme() {
    return ClusterUri.SCHEME;
  }

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    Map<String, String> prefixed = conf.getPropsWithPrefix("tessera.");
    Map<String, String> named = new java.util.HashMap<>();
    prefixed.forEach((k, v) -> named.put("tessera." + k, v));
    if (conf.get(META_KEY) != null) {
      named.put(ClusterUri.META, conf.get(META_KEY));
    }
    if (conf.get(CREDENTIALS_KEY) != null) {
      named.put(ClusterUri.CREDENTIALS, conf.get(CREDENTIALS_KEY));
    }
    try {
      ClusterUri.createOptions(
          named); // refuses a malformed tessera.ec now, not at the first create
      settings = Map.copyOf(named);
      client = AsyncTesseraFileSystem.connect(ClusterUri.clientConfig(name, named, "hadoop"));
    } catch (IllegalArgumentException e) {
      throw new IOException(e.getMessage(), e);
    }
    fs = client;
    uri =
        URI.create(
            ClusterUri.SCHEME + "://" + (name.getAuthority() == null ? "" : name.getAuthority()));
    locations = new BlockLocations(client.admin());
    workingDir =
        makeQualified(
            new Path("/user/" + UserGroupInformation.getCurrentUser().getShortUserName()));
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  protected int getDefaultPort() {
    return 9860;
  }

  /** The absolute Tessera path of {@code p}, resolved against the working directory. */
  String pathOf(Path p) {
    Path q = p.isAbsolute() ? p : new Path(workingDir, p);
    String s = q.toUri().getPath();
    return VirtualFileSystem.normalize(s.isEmpty() ? "/" : s);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String p = pathOf(f);
    TesseraFile file = Errors.lookup(fs.open(p), p);
    adapterStatistics.opened();
    return new FSDataInputStream(new TesseraFsInputStream(file, statistics, adapterStatistics));
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    String p = pathOf(f);
    FileStatus existing = statOrNull(p);
    if (existing != null && existing.isDirectory()) {
      throw new FileAlreadyExistsException(p + " is a directory");
    }
    if (existing != null && !overwrite) {
      throw new FileAlreadyExistsException(p + " already exists");
    }
    String parent = parentOf(p);
    if (parent != null) {
      mkdirsOrFail(parent, FsPermission.getDirDefault());
    }
    CreateOptions options =
        ClusterUri.createOptions(settings).overwrite(overwrite).mode(modeOf(permission, 0644));
    TesseraFile file = Errors.await(fs.create(p, options), p);
    adapterStatistics.created();
    return new FSDataOutputStream(
        new TesseraFsOutputStream(file, 0, adapterStatistics), statistics);
  }

  @Override
  public FSDataOutputStream createNonRecursive(
      Path f,
      FsPermission permission,
      java.util.EnumSet<org.apache.hadoop.fs.CreateFlag> flags,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    String p = pathOf(f);
    String parent = parentOf(p);
    if (parent != null) {
      FileStatus ps = statOrNull(parent);
      if (ps == null) {
        throw new FileNotFoundException("parent " + parent + " does not exist");
      }
      if (!ps.isDirectory()) {
        throw new ParentNotDirectoryException(parent + " is a file");
      }
    }
    return create(
        f,
        permission,
        flags.contains(org.apache.hadoop.fs.CreateFlag.OVERWRITE),
        bufferSize,
        replication,
        blockSize,
        progress);
  }

  /**
   * Appends from the file's end. One appender at a time: two clients appending at once would write
   * over each other's bytes, as Tessera files have no append-at-end primitive.
   */
  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    String p = pathOf(f);
    TesseraFile file = Errors.await(fs.open(p), p);
    return new FSDataOutputStream(
        new TesseraFsOutputStream(file, file.size(), adapterStatistics), statistics, file.size());
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    String s = pathOf(src);
    String d = pathOf(dst);
    adapterStatistics.renamed();
    FileStatus from = statOrNull(s);
    if (from == null || s.equals("/")) {
      return false;
    }
    if (s.equals(d)) {
      return true;
    }
    if (d.startsWith(s + "/")) {
      return false; // into itself
    }
    FileStatus to = statOrNull(d);
    if (to != null && to.isDirectory()) {
      d = d.equals("/") ? "/" + from.getPath().getName() : d + "/" + from.getPath().getName();
      if (statOrNull(d) != null) {
        return false;
      }
    } else if (to != null) {
      return false; // an existing file is not replaced (HDFS rename semantics)
    } else {
      String parent = parentOf(d);
      FileStatus ps = parent == null ? null : statOrNull(parent);
      if (parent != null && (ps == null || !ps.isDirectory())) {
        return false;
      }
    }
    // another client may have taken the name or the source meanwhile
    return Errors.orElse(
        fs.rename(s, d, false).thenApply(v -> true),
        s,
        false,
        StatusProto.EXISTS,
        StatusProto.NOT_FOUND);
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    String p = pathOf(f);
    adapterStatistics.deleted();
    FileStatus st = statOrNull(p);
    if (st == null) {
      return false;
    }
    if (p.equals("/")) {
      // the root itself stays: its contents go (as HDFS)
      if (!recursive && listStatus(f).length > 0) {
        throw new org.apache.hadoop.fs.PathIsNotEmptyDirectoryException(p);
      }
      for (FileStatus child : listStatus(f)) {
        delete(child.getPath(), true);
      }
      return true;
    }
    return Errors.orElse(
        fs.delete(p, recursive).thenApply(v -> true), p, false, StatusProto.NOT_FOUND);
  }

  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    String p = pathOf(f);
    adapterStatistics.listed();
    io.tessera.client.FileStatus self = Errors.lookup(fs.stat(p), p);
    if (!self.directory()) {
      return new FileStatus[] {status(self)};
    }
    List<FileStatus> out = new ArrayList<>();
    String after = "";
    boolean more = true;
    while (more) {
      DirectoryPage page = Errors.await(fs.list(p, after, LIST_PAGE), p);
      for (io.tessera.client.FileStatus s : page.entries()) {
        out.add(status(s));
      }
      more = page.more();
      after = page.more() ? page.lastName() : after;
    }
    return out.toArray(new FileStatus[0]);
  }

  @Override
  public void setWorkingDirectory(Path dir) {
    workingDir = makeQualified(new Path(pathOf(dir)));
  }

  @Override
  public Path getWorkingDirectory() {
    return workingDir;
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) throws IOException {
    mkdirsOrFail(pathOf(f), permission);
    return true;
  }

  private void mkdirsOrFail(String p, FsPermission permission) throws IOException {
    // a file on the way is an error, not a directory to make
    for (String a = p; a != null; a = parentOf(a)) {
      FileStatus st = statOrNull(a);
      if (st != null) {
        if (!st.isDirectory()) {
          if (a.equals(p)) {
            throw new FileAlreadyExistsException(p + " is a file");
          }
          throw new ParentNotDirectoryException(a + " is a file, not a directory");
        }
        break;
      }
    }
    adapterStatistics.mkdirs();
    Errors.await(fs.mkdir(p, true, CreateOptions.defaults().mode(modeOf(permission, 0755))), p);
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    String p = pathOf(f);
    adapterStatistics.stat();
    return status(Errors.lookup(fs.stat(p), p));
  }

  private FileStatus statOrNull(String p) throws IOException {
    return Errors.orElse(
        fs.stat(p).thenApply(this::status),
        p,
        null,
        StatusProto.NOT_FOUND,
        StatusProto.NOT_DIRECTORY);
  }

  @Override
  public void setPermission(Path f, FsPermission permission) throws IOException {
    String p = pathOf(f);
    Errors.await(fs.changeAttributes(p, 0, AttributeChange.mode(permission.toShort() & 07777)), p);
  }

  /** Owners are numeric (uid and gid), as the cluster keeps them; names are refused. */
  @Override
  public void setOwner(Path f, String username, String groupname) throws IOException {
    String p = pathOf(f);
    Errors.await(fs.changeAttributes(p, 0, AttributeChange.owner(id(username), id(groupname))), p);
  }

  private static Integer id(String name) throws IOException {
    if (name == null) {
      return null;
    }
    try {
      return Integer.parseInt(name);
    } catch (NumberFormatException e) {
      throw new IOException(
          "owner '" + name + "': Tessera keeps numeric owners and groups; give the uid or gid");
    }
  }

  /** Sets the modification time; access times are not kept ({@code atime} is ignored). */
  @Override
  public void setTimes(Path f, long mtime, long atime) throws IOException {
    String p = pathOf(f);
    if (mtime >= 0) {
      Errors.await(
          fs.changeAttributes(p, 0, AttributeChange.modified(Instant.ofEpochMilli(mtime))), p);
    } else {
      Errors.await(fs.stat(p), p);
    }
  }

  @Override
  public boolean truncate(Path f, long newLength) throws IOException {
    String p = pathOf(f);
    FileStatus st = getFileStatus(f);
    if (st.isDirectory()) {
      throw new FileNotFoundException(p + " is a directory");
    }
    if (newLength > st.getLen()) {
      throw new org.apache.hadoop.HadoopIllegalArgumentException(
          "cannot truncate " + p + " to " + newLength + ": longer than " + st.getLen());
    }
    Errors.await(fs.truncate(p, newLength), p);
    return true;
  }

  @Override
  public BlockLocation[] getFileBlockLocations(FileStatus file, long start, long len)
      throws IOException {
    if (file == null) {
      return null;
    }
    if (start < 0 || len < 0) {
      throw new IllegalArgumentException("negative start or length");
    }
    if (file.isDirectory() || file.getLen() <= start) {
      return new BlockLocation[0];
    }
    String p = pathOf(file.getPath());
    return locations.of(Errors.await(fs.stat(p), p), start, len);
  }

  @Override
  public long getDefaultBlockSize(Path f) {
    try {
      io.tessera.client.FileStatus s = Futures.get(fs.stat(pathOf(f)));
      return blockSize(s);
    } catch (IOException e) {
      return getDefaultBlockSize();
    }
  }

  @Override
  public long getDefaultBlockSize() {
    return 4L << 20;
  }

  @Override
  public FsStatus getStatus(Path p) throws IOException {
    Capacity c = Futures.get(fs.capacity());
    return new FsStatus(c.totalBytes(), c.usedBytes(), c.freeBytes());
  }

  @Override
  public boolean hasPathCapability(Path path, String capability) throws IOException {
    switch (org.apache.hadoop.fs.impl.PathCapabilitiesSupport.validatePathCapabilityArgs(
        makeQualified(path), capability)) {
      case CommonPathCapabilities.FS_APPEND:
      case CommonPathCapabilities.FS_PERMISSIONS:
      case CommonPathCapabilities.FS_TRUNCATE:
        return true;
      default:
        return super.hasPathCapability(path, capability);
    }
  }

  /** The adapter's own counts (opens, creates, lists, ...) beside Hadoop's per-scheme bytes. */
  public AdapterStatistics adapterStatistics() {
    return adapterStatistics;
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (client != null) {
        client.close();
      }
    }
  }

  FileStatus status(io.tessera.client.FileStatus s) {
    Owner o = s.owner();
    return new FileStatus(
        s.directory() ? 0 : s.size(),
        s.directory(),
        1,
        s.directory() ? 0 : blockSize(s),
        s.modified().toEpochMilli(),
        0,
        new FsPermission((short) (s.mode() & 07777)),
        String.valueOf(o.uid()),
        String.valueOf(o.gid()),
        makeQualified(new Path(s.path())));
  }

  private long blockSize(io.tessera.client.FileStatus s) {
    if (s.layout() != null) {
      return (long) s.layout().stripeUnit() * s.layout().dataUnits();
    }
    if (s.log() != null) {
      return (long) s.log().layout().stripeUnit() * s.log().layout().dataUnits();
    }
    return getDefaultBlockSize();
  }

  private static int modeOf(FsPermission permission, int fallback) {
    return permission == null ? fallback : permission.toShort() & 07777;
  }

  private static String parentOf(String p) {
    if (p.equals("/")) {
      return null;
    }
    int i = p.lastIndexOf('/');
    return i == 0 ? "/" : p.substring(0, i);
  }
}
