package io.tessera.client;

import static io.tessera.client.VirtualFileSystem.normalize;

import io.tessera.client.admin.ClusterAdmin;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.client.internal.DataClient;
import io.tessera.client.internal.FileTarget;
import io.tessera.client.internal.LayoutRefresh;
import io.tessera.client.internal.MetaClient;
import io.tessera.client.internal.ParityWriter;
import io.tessera.client.internal.ServerHealth;
import io.tessera.client.internal.StripedIo;
import io.tessera.client.log.LogBody;
import io.tessera.client.log.LogFiles;
import io.tessera.client.region.RegionLocks;
import io.tessera.common.config.Config;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.fault.FaultPoints;
import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.DirEntryProto;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.common.proto.ReadDirRequestProto;
import io.tessera.common.proto.RemoveRequestProto;
import io.tessera.common.proto.RenameRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.DataProtection;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.common.status.TesseraException;
import java.io.Closeable;
import java.io.IOException;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The asynchronous core of the client: every call returns a future that fails with a {@link
 * TesseraException} carrying the status code. {@link TesseraFileSystem} is the blocking facade over
 * it. Thread-safe; share one per process.
 */
public final class AsyncTesseraFileSystem implements VirtualFileSystem, Closeable {
  /** Where snapshots are read: /.snapshots/NAME/... (read-only). */
  private final RpcClientPool pool;

  private final RpcClientPool metaPool;
  private final MetaClient meta;
  private final FsContext ctx;
  private final DataClient data;
  private final ExecutorService coding;
  private final IoCounters counters;
  private final ParityWriter writer;
  private final TesseraFileSystem blocking;
  private final ClusterAdmin admin;

  private final Duration partialLease;
  private final TransportSecurity security;
  private final LayoutRefresh layouts;
  private final LogFiles logs;

  /** A view acting for another user (see {@link #actingFor}): it owns nothing to close. */
  private final boolean view;

  private AsyncTesseraFileSystem(Config config, TransportSecurity security) {
    this.partialLease = config.get(ClientConfigKeys.Failures.PARTIAL_LEASE);
    this.security = security;
    this.counters = new IoCounters();
    this.view = false;
    this.pool = pool("tessera-client", config.get(RpcConfigKeys.IO_THREADS), config, security);
    byte[] clientId = new byte[16];
    new SecureRandom().nextBytes(clientId);
    CallerProto identity =
        MetaClient.identity(clientId, config.get(ClientConfigKeys.Cluster.APP_ID));
    List<String> replicas =
        Arrays.stream(config.get(ClientConfigKeys.Cluster.META).split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .toList();
    // the meta group's calls get a network thread of their own: small, latency-bound replies
    // should not queue behind megabytes of shard data on a shared event loop
    this.metaPool = pool("tessera-client-meta", 1, config, security);
    try {
      this.meta =
          new MetaClient(
              metaPool,
              replicas,
              config.get(ClientConfigKeys.Cluster.META_RETRY_FOR),
              identity,
              config.get(ClientConfigKeys.Cluster.READS_DURING_ELECTION),
              security.enabled() ? null : claimedActor());
    } catch (IllegalArgumentException e) {
      pool.close();
      metaPool.close();
      throw e;
    }
    this.data =
        new DataClient(
            pool,
            meta,
            identity,
            new ServerHealth(
                config.get(ClientConfigKeys.Failures.DOWN_SERVER_RETRY_AFTER), System::nanoTime),
            config.get(ClientConfigKeys.Failures.DOWN_SERVER_RETRY_AFTER).toMillis(),
            config.get(ClientConfigKeys.Cluster.USE_PROXIES));
    AtomicInteger codingThreads = new AtomicInteger();
    this.coding =
        Executors.newFixedThreadPool(
            Runtime.getRuntime().availableProcessors(),
            r -> {
              Thread t = new Thread(r, "tessera-coding-" + codingThreads.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    this.writer =
        new ParityWriter(
            data, meta, coding, counters, config.get(ClientConfigKeys.Failures.LOCK_LEASE), this);
    this.layouts = new LayoutRefresh(meta);
    this.ctx =
        new FsContext(
            meta,
            new StripedIo(data, writer, coding, counters, layouts),
            this,
            config.get(ClientConfigKeys.Streams.WRITE_BUFFER),
            config.get(ClientConfigKeys.Streams.READ_CHUNK),
            config.get(ClientConfigKeys.Streams.WRITES_IN_FLIGHT),
            config.get(ClientConfigKeys.Streams.READS_AHEAD),
            new RegionLocks(
                meta,
                config.get(ClientConfigKeys.Regions.REGION_CACHE),
                RegionLocks.thisProcess(),
                counters.regionRoundTrips),
            config.get(ClientConfigKeys.Regions.REGION_LOCK_TIMEOUT),
            config.get(ClientConfigKeys.Streams.SYNC_ON_CLOSE));
    this.logs =
        new LogFiles(
            meta,
            ctx.io,
            layouts,
            ctx.writesInFlight,
            config.get(ClientConfigKeys.Logs.FLATTEN_ON_CLOSE));
    this.blocking = new TesseraFileSystem(this);
    this.admin = new ClusterAdmin(meta, data, pool, this);
  }

  /** A view of {@code base} whose namespace requests go through {@code meta}. */
  private AsyncTesseraFileSystem(AsyncTesseraFileSystem base, MetaClient meta) {
    this.partialLease = base.partialLease;
    this.security = base.security;
    this.counters = base.counters;
    this.pool = base.pool;
    this.metaPool = base.metaPool;
    this.meta = meta;
    this.data = base.data;
    this.coding = base.coding;
    this.writer = base.writer;
    this.layouts = base.layouts;
    this.ctx = base.ctx;
    this.logs = base.logs.with(meta);
    this.blocking = new TesseraFileSystem(this);
    this.admin = new ClusterAdmin(meta, data, pool, this);
    this.view = true;
  }

  /**
   * The same client acting for {@code user} in the namespace: lookups, listings, creates, removes,
   * renames and attribute changes are checked and done as that user (who owns what it creates).
   * Only a trusted proxy may: an NFS gateway's credentials; anyone else's requests are refused.
   * File I/O goes on through this client's own access. Closing the view does nothing.
   */
  @Override
  public AsyncTesseraFileSystem actingFor(ActorProto user) {
    return new AsyncTesseraFileSystem(this, meta.actingFor(user));
  }

  private static RpcClientPool pool(
      String name, int ioThreads, Config config, TransportSecurity security) {
    return new RpcClientPool(
        name,
        ioThreads,
        RpcConfigKeys.maxFrameBytes(config),
        config.get(RpcConfigKeys.CALL_TIMEOUT).toMillis(),
        (int) config.get(RpcConfigKeys.CONNECT_TIMEOUT).toMillis(),
        RpcConfigKeys.silenceLimitMillis(config),
        security);
  }

  /**
   * Connects to the cluster whose meta replicas are named by {@code tessera.client.meta}, with the
   * credentials file {@code tessera.security.credentials} names (or none with {@code
   * tessera.security=off}). No call is made until the first request.
   *
   * @throws IOException when the credentials cannot be read
   */
  public static AsyncTesseraFileSystem connect(Config config) throws IOException {
    return new AsyncTesseraFileSystem(config, TransportSecurity.from(config, null));
  }

  /** Connects as {@link #connect(Config)} does, proving itself with {@code credentials}. */
  public static AsyncTesseraFileSystem connect(Config config, Credentials credentials)
      throws IOException {
    return new AsyncTesseraFileSystem(
        config, TransportSecurity.tls(credentials, DataProtection.of(config)));
  }

  /** Connects with a process's transport security (a server that is also a client). */
  public static AsyncTesseraFileSystem connect(Config config, TransportSecurity security) {
    return new AsyncTesseraFileSystem(config, security);
  }

  /**
   * Who this process says it is without security: its user's name and ids, as an admin (the cluster
   * believes whatever it is told then).
   */
  private static ActorProto claimedActor() {
    Owner me = Owner.process();
    return ActorProto.newBuilder()
        .setName(System.getProperty("user.name", "unknown"))
        .setUid(me.uid())
        .setGid(me.gid())
        .setAdmin(true)
        .build();
  }

  /** Who this client is (its credentials'), or null without security. */
  @Override
  public Identity identity() {
    return security.enabled() ? security.credentials().identity() : null;
  }

  /** Creates a regular file and opens it; fails with EXISTS unless overwrite was asked for. */
  @Override
  public CompletableFuture<TesseraFile> create(String path, CreateOptions options) {
    String p = normalize(path);
    return createCall(p, options).thenApply(r -> handle(p, r, true));
  }

  @Override
  public CompletableFuture<FileStatus> createEntry(String path, CreateOptions options) {
    String p = normalize(path);
    return createCall(p, options).thenApply(r -> FileStatus.of(p, r.getInode()));
  }

  /** The meta group's CREATE of {@code p} (normalized). */
  private CompletableFuture<MetaResponseProto> createCall(String p, CreateOptions options) {
    CreateRequestProto.Builder c =
        CreateRequestProto.newBuilder()
            .setPath(p)
            .setMode(options.mode())
            .setUid(options.owner().uid())
            .setGid(options.owner().gid())
            .setOverwrite(options.overwrite())
            .setLog(options.log())
            .setPartialLeaseMs((int) Math.min(Integer.MAX_VALUE, options.partialLeaseMillis()));
    LayoutPolicyProto policy;
    try {
      policy = options.asksLayout() ? options.policy(1 << 20) : null;
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(
          new TesseraException(StatusProto.INVALID_ARGUMENT, e.getMessage()));
    }
    if (policy != null) {
      c.setLayout(policy).setHasLayout(true);
    }
    return meta.call(MetaRequestProto.newBuilder().setCreate(c));
  }

  /** How long a partial copy outlives its writer (tessera.client.partial-lease). */
  public Duration partialLease() {
    return partialLease;
  }

  /**
   * Renews the lease of a partial copy created with {@link CreateOptions#partial}, for {@code
   * lease} from now (nothing for an ordinary file).
   */
  public CompletableFuture<Void> renewPartial(long fileId, Duration lease) {
    return meta.call(
            MetaRequestProto.newBuilder()
                .setSetAttr(
                    SetAttrRequestProto.newBuilder()
                        .setFileId(fileId)
                        .setPartialLeaseMs((int) Math.min(Integer.MAX_VALUE, lease.toMillis()))))
        .thenApply(r -> null);
  }

  /** Opens an existing regular file. */
  @Override
  public CompletableFuture<TesseraFile> open(String path) {
    String p = normalize(path);
    return meta.call(
            MetaRequestProto.newBuilder().setGetAttr(GetAttrRequestProto.newBuilder().setPath(p)))
        .thenApply(
            r -> {
              if (r.getInode().getType() == FileTypeProto.DIRECTORY) {
                throw new CompletionException(
                    new TesseraException(StatusProto.IS_DIRECTORY, p + " is a directory"));
              }
              return handle(p, r, false);
            });
  }

  /**
   * An open file from the meta group's answer (its inode and its access token): the one place that
   * chooses how a file's bytes are read and written, by its layout's kind. {@code created}: the
   * handle of a file this call created, whose close syncs what it wrote.
   */
  private TesseraFile handle(String path, MetaResponseProto opened, boolean created) {
    InodeProto in = opened.getInode();
    return switch (in.getLayout().getKind()) {
      case STRIPED -> {
        StripedBody body = new StripedBody(ctx, FileTarget.of(opened, path, layouts), in.getSize());
        yield new TesseraFile(
            ctx, path, in.getId(), in.getInSnapshot(), body, body.layout(), created);
      }
      case LOG ->
          new TesseraFile(
              ctx,
              path,
              in.getId(),
              in.getInSnapshot(),
              new LogBody(logs, in, path),
              null,
              created);
      default ->
          throw new CompletionException(
              new TesseraException(
                  StatusProto.INVALID_ARGUMENT,
                  path
                      + " has a layout kind this client does not know ("
                      + in.getLayout().getKindValue()
                      + "): use a client as new as the cluster"));
    };
  }

  /**
   * Writes a log file's merged index as one flattened index (done on its last writer's close
   * anyway); nothing for a striped file.
   */
  public CompletableFuture<FileStatus> flatten(String path) {
    String p = normalize(path);
    return meta.call(
            MetaRequestProto.newBuilder().setGetAttr(GetAttrRequestProto.newBuilder().setPath(p)))
        .thenCompose(
            r -> {
              InodeProto in = r.getInode();
              if (in.getLayout().getKind() != LayoutKindProto.LOG || in.getInSnapshot()) {
                return CompletableFuture.completedFuture(null);
              }
              return new LogBody(logs, in, p).flatten();
            })
        .thenCompose(v -> stat(p));
  }

  /** Attributes of a file or directory. */
  @Override
  public CompletableFuture<FileStatus> stat(String path) {
    String p = normalize(path);
    return meta.call(
            MetaRequestProto.newBuilder().setGetAttr(GetAttrRequestProto.newBuilder().setPath(p)))
        .thenApply(r -> FileStatus.of(p, r.getInode()));
  }

  /** One page of a directory's entries, by name, after {@code startAfter} ("" for the first). */
  @Override
  public CompletableFuture<DirectoryPage> list(String path, String startAfter, int limit) {
    String p = normalize(path);
    return meta.call(
            MetaRequestProto.newBuilder()
                .setReadDir(
                    ReadDirRequestProto.newBuilder()
                        .setPath(p)
                        .setStartAfter(startAfter == null ? "" : startAfter)
                        .setLimit(limit)))
        .thenApply(
            r -> {
              List<FileStatus> out = new ArrayList<>();
              for (DirEntryProto e : r.getEntries().getEntriesList()) {
                out.add(
                    FileStatus.of(
                        p.equals("/") ? "/" + e.getName() : p + "/" + e.getName(), e.getInode()));
              }
              return new DirectoryPage(out, r.getEntries().getMore());
            });
  }

  /**
   * Creates a directory; with {@code parents}, also its missing ancestors, and an existing
   * directory is fine (given a {@code defaultLayout}, it takes it as its new default). A {@code
   * defaultLayout} is inherited by files created below, down to a directory with its own. One wider
   * than the cluster's data servers is refused unless it says {@link
   * CreateOptions#widerThanCluster}.
   */
  @Override
  public CompletableFuture<FileStatus> mkdir(
      String path, boolean parents, CreateOptions defaultLayout) {
    String p = normalize(path);
    Owner owner = defaultLayout == null ? Owner.process() : defaultLayout.owner();
    MkdirRequestProto.Builder m =
        MkdirRequestProto.newBuilder()
            .setPath(p)
            .setParents(parents)
            .setUid(owner.uid())
            .setGid(owner.gid());
    if (defaultLayout != null) {
      m.setMode(defaultLayout.mode());
      try {
        LayoutPolicyProto policy = defaultLayout.policy(1 << 20);
        if (policy != null) {
          m.setDefaultLayout(policy)
              .setHasDefaultLayout(true)
              .setForce(defaultLayout.widerThanCluster());
        }
      } catch (IllegalArgumentException e) {
        return CompletableFuture.failedFuture(
            new TesseraException(StatusProto.INVALID_ARGUMENT, e.getMessage()));
      }
    }
    return meta.call(MetaRequestProto.newBuilder().setMkdir(m))
        .thenApply(r -> FileStatus.of(p, r.getInode()));
  }

  /** Renames atomically, with POSIX rules for an existing target. */
  public CompletableFuture<Void> rename(String source, String target) {
    return rename(source, target, true);
  }

  /**
   * Renames atomically; an existing target is replaced by POSIX rules if {@code replace}, else the
   * rename fails with EXISTS and changes nothing.
   */
  @Override
  public CompletableFuture<Void> rename(String source, String target, boolean replace) {
    String s = normalize(source);
    String t = normalize(target);
    return meta.call(
            MetaRequestProto.newBuilder()
                .setRename(
                    RenameRequestProto.newBuilder()
                        .setSource(s)
                        .setTarget(t)
                        .setNoReplace(!replace)))
        .thenApply(r -> null);
  }

  /**
   * Removes a file, or a directory: an empty one, or with {@code recursive} a whole tree. Space on
   * the data servers is freed in the background.
   */
  @Override
  public CompletableFuture<Void> delete(String path, boolean recursive) {
    String p = normalize(path);
    return meta.call(
            MetaRequestProto.newBuilder()
                .setRemove(RemoveRequestProto.newBuilder().setPath(p).setRecursive(recursive)))
        .thenApply(r -> null);
  }

  /** Changes permission bits and/or the modification time (null leaves it). */
  public CompletableFuture<FileStatus> setAttributes(String path, Integer mode, Instant modified) {
    return changeAttributes(path, 0, new AttributeChange(mode, null, null, modified));
  }

  /**
   * Changes attributes of the file at {@code path}, or (with a null path) of the file {@code
   * fileId} wherever it is; with both, the file at path must still be that file.
   */
  @Override
  public CompletableFuture<FileStatus> changeAttributes(
      String path, long fileId, AttributeChange change) {
    String p = path == null ? "" : normalize(path);
    SetAttrRequestProto.Builder a = SetAttrRequestProto.newBuilder().setPath(p).setFileId(fileId);
    if (change.mode() != null) {
      a.setSetMode(true).setMode(change.mode());
    }
    if (change.uid() != null) {
      a.setUid(change.uid());
    }
    if (change.gid() != null) {
      a.setGid(change.gid());
    }
    if (change.modified() != null) {
      a.setSetMtime(true).setMtimeMs(change.modified().toEpochMilli());
    }
    return meta.call(MetaRequestProto.newBuilder().setSetAttr(a))
        .thenApply(r -> FileStatus.of(p, r.getInode()));
  }

  /**
   * Attributes of the file or directory with this inode number, wherever it is now, or (with a
   * snapshot name) as that snapshot has it; {@link FileStatus#path} is its path ("" when an
   * ancestor was created before paths could be found from ids).
   */
  @Override
  public CompletableFuture<FileStatus> statById(long fileId, String snapshot) {
    return byId(fileId, snapshot).thenApply(r -> FileStatus.of(r.getPath(), r.getInode()));
  }

  /** Opens a regular file by its inode number (see {@link #statById}). */
  @Override
  public CompletableFuture<TesseraFile> openById(long fileId, String snapshot) {
    return byId(fileId, snapshot)
        .thenApply(
            r -> {
              if (r.getInode().getType() == FileTypeProto.DIRECTORY) {
                throw new CompletionException(
                    new TesseraException(
                        StatusProto.IS_DIRECTORY, "file " + fileId + " is a directory"));
              }
              return handle(r.getPath(), r, false);
            });
  }

  private CompletableFuture<MetaResponseProto> byId(long fileId, String snapshot) {
    GetAttrRequestProto.Builder g = GetAttrRequestProto.newBuilder().setFileId(fileId);
    if (snapshot != null) {
      g.setPath(SNAPSHOTS + "/" + snapshot);
    }
    return meta.call(MetaRequestProto.newBuilder().setGetAttr(g));
  }

  @Override
  public CompletableFuture<Void> truncate(String path, long size) {
    return open(path)
        .thenCompose(f -> f.truncateAsync(size).whenComplete((v, e) -> f.closeAsync()));
  }

  @Override
  public CompletableFuture<Capacity> capacity() {
    return admin
        .statusAsync()
        .thenApply(
            s ->
                s.dataServers().stream()
                    .filter(d -> d.up() && !d.decommissioned())
                    .map(d -> new Capacity(d.capacityBytes(), d.freeBytes(), d.usedBytes()))
                    .reduce(
                        new Capacity(0, 0, 0),
                        (a, b) ->
                            new Capacity(
                                a.totalBytes() + b.totalBytes(),
                                a.freeBytes() + b.freeBytes(),
                                a.usedBytes() + b.usedBytes())));
  }

  @Override
  public CompletableFuture<List<RegionHolder>> regionHolders(String path) {
    return stat(path)
        .thenCompose(s -> ctx.regions.list(s.fileId()))
        .thenApply(r -> r.getHoldersList().stream().map(RegionHolder::of).toList());
  }

  @Override
  public CompletableFuture<List<SnapshotInfo>> snapshots() {
    return admin.snapshots().listAsync();
  }

  /** The blocking facade over this client. */
  public TesseraFileSystem blocking() {
    return blocking;
  }

  /**
   * Administration of the cluster (servers, snapshots, recovery, fsck) over this client's
   * connections.
   */
  public ClusterAdmin admin() {
    return admin;
  }

  /** This client's region locks and sharing intents. */
  RegionLocks regionLocks() {
    return ctx.regions;
  }

  /** Counters of this client's I/O: lock refusals, degraded writes and reads. */
  public IoCounters ioCounters() {
    return counters;
  }

  @Override
  public void close() {
    if (view) {
      return;
    }
    FaultPoints.disarmAll(this);
    ctx.regions.close();
    pool.close();
    metaPool.close();
    coding.shutdownNow();
  }
}
