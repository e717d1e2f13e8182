package io.tessera.client;

import io.tessera.client.internal.DataClient;
import io.tessera.client.internal.FileTarget;
import io.tessera.client.internal.ParityWriter;
import io.tessera.client.internal.ServerHealth;
import io.tessera.client.internal.ShardChecker;
import io.tessera.client.internal.MetaClient;
import io.tessera.client.internal.StripedIo;
import io.tessera.common.config.Config;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.ClusterStatusRequestProto;
import io.tessera.common.proto.ClusterStatusResponseProto;
import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.DirEntryProto;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.common.proto.ReadDirRequestProto;
import io.tessera.common.proto.RemoveRequestProto;
import io.tessera.common.proto.RenameRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.ScanVersionsRequestProto;
import io.tessera.common.proto.ScanVersionsResponseProto;
import io.tessera.common.proto.SnapshotCreateRequestProto;
import io.tessera.common.proto.SnapshotDeleteRequestProto;
import io.tessera.common.proto.SnapshotListRequestProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.status.TesseraException;
import java.io.Closeable;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The asynchronous core of the client: every call returns a future that fails with a
 * {@link TesseraException} carrying the status code. {@link TesseraFileSystem} is the
 * blocking facade over it. Thread-safe; share one per process.
 */
public final class AsyncTesseraFileSystem implements Closeable {
  /** Most stripes one repair request names (meta.proto RepairStripesRequestProto). */
  private static final int MAX_REPAIR_STRIPES = 4096;

  private final RpcClientPool pool;
  private final RpcClientPool metaPool;
  private final MetaClient meta;
  private final FsContext ctx;
  private final DataClient data;
  private final ExecutorService coding;
  private final IoCounters counters = new IoCounters();
  private final ParityWriter writer;

  private final java.time.Duration partialLease;

  private AsyncTesseraFileSystem(Config config) {
    this.partialLease = config.get(ClientConfigKeys.PARTIAL_LEASE);
    this.pool = pool("tessera-client", config.get(RpcConfigKeys.IO_THREADS), config);
    byte[] clientId = new byte[16];
    new SecureRandom().nextBytes(clientId);
    CallerProto identity = MetaClient.identity(clientId, config.get(ClientConfigKeys.APP_ID));
    List<String> replicas = Arrays.stream(config.get(ClientConfigKeys.META).split(","))
        .map(String::trim).filter(s -> !s.isEmpty()).toList();
    // the meta group's calls get a network thread of their own: small, latency-bound replies
    // should not queue behind megabytes of shard data on a shared event loop
    this.metaPool = pool("tessera-client-meta", 1, config);
    try {
      this.meta = new MetaClient(metaPool, replicas, config.get(ClientConfigKeys.META_RETRY_FOR), identity,
          config.get(ClientConfigKeys.READS_DURING_ELECTION));
    } catch (IllegalArgumentException e) {
      pool.close();
      metaPool.close();
      throw e;
    }
    this.data = new DataClient(pool, meta, identity,
        new ServerHealth(config.get(ClientConfigKeys.DOWN_SERVER_RETRY_AFTER), System::nanoTime));
    AtomicInteger codingThreads = new AtomicInteger();
    this.coding = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), r -> {
      Thread t = new Thread(r, "tessera-coding-" + codingThreads.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.writer = new ParityWriter(data, meta, coding, counters, config.get(ClientConfigKeys.LOCK_LEASE));
    this.ctx = new FsContext(meta, new StripedIo(data, writer, coding, counters,
        new io.tessera.client.internal.LayoutRefresh(meta)), this,
        config.get(ClientConfigKeys.WRITE_BUFFER),
        config.get(ClientConfigKeys.READ_CHUNK), config.get(ClientConfigKeys.WRITES_IN_FLIGHT),
        config.get(ClientConfigKeys.READS_AHEAD));
  }

  private static RpcClientPool pool(String name, int ioThreads, Config config) {
    return new RpcClientPool(name, ioThreads, RpcConfigKeys.maxFrameBytes(config),
        config.get(RpcConfigKeys.CALL_TIMEOUT).toMillis(), (int) config.get(RpcConfigKeys.CONNECT_TIMEOUT).toMillis(),
        RpcConfigKeys.silenceLimitMillis(config));
  }

  /**
   * Connects to the cluster whose meta replicas are named by {@code tessera.client.meta}.
   * No call is made until the first request.
   */
  public static AsyncTesseraFileSystem connect(Config config) {
    return new AsyncTesseraFileSystem(config);
  }

  /** Creates a regular file and opens it; fails with EXISTS unless overwrite was asked for. */
  public CompletableFuture<TesseraFile> create(String path, CreateOptions options) {
    String p = normalize(path);
    CreateRequestProto.Builder c = CreateRequestProto.newBuilder().setPath(p).setMode(options.mode())
        .setOverwrite(options.overwrite()).setPartialLeaseMs((int) Math.min(Integer.MAX_VALUE,
            options.partialLeaseMillis()));
    LayoutPolicyProto policy;
    try {
      policy = options.hasCodingPolicy() ? options.policy(1 << 20) : null;
    } catch (IllegalArgumentException e) {
      return CompletableFuture.failedFuture(new TesseraException(StatusProto.INVALID_ARGUMENT, e.getMessage()));
    }
    if (policy != null) {
      c.setLayout(policy).setHasLayout(true);
    }
    return meta.call(MetaRequestProto.newBuilder().setCreate(c)).thenApply(r -> handle(p, r.getInode()));
  }

  /** How long a partial copy outlives its writer (tessera.client.partial-lease). */
  public java.time.Duration partialLease() {
    return partialLease;
  }

  /**
   * Renews the lease of a partial copy created with {@link CreateOptions#partial}, for {@code lease}
   * from now (nothing for an ordinary file).
   */
  public CompletableFuture<Void> renewPartial(long fileId, java.time.Duration lease) {
    return meta.call(MetaRequestProto.newBuilder().setSetAttr(io.tessera.common.proto.SetAttrRequestProto
        .newBuilder().setFileId(fileId).setPartialLeaseMs((int) Math.min(Integer.MAX_VALUE, lease.toMillis()))))
        .thenApply(r -> null);
  }

  /** Opens an existing regular file. */
  public CompletableFuture<TesseraFile> open(String path) {
    String p = normalize(path);
    return meta.call(MetaRequestProto.newBuilder().setGetAttr(GetAttrRequestProto.newBuilder().setPath(p)))
        .thenApply(r -> {
          if (r.getInode().getType() == FileTypeProto.DIRECTORY) {
            throw new java.util.concurrent.CompletionException(
                new TesseraException(StatusProto.IS_DIRECTORY, p + " is a directory"));
          }
          return handle(p, r.getInode());
        });
  }

  private TesseraFile handle(String path, InodeProto in) {
    return new TesseraFile(ctx, path, FileTarget.of(in), in.getSize());
  }

  /** Attributes of a file or directory. */
  public CompletableFuture<FileStatus> stat(String path) {
    String p = normalize(path);
    return meta.call(MetaRequestProto.newBuilder().setGetAttr(GetAttrRequestProto.newBuilder().setPath(p)))
        .thenApply(r -> FileStatus.of(p, r.getInode()));
  }

  /** One page of a directory's entries, by name, after {@code startAfter} ("" for the first). */
  public CompletableFuture<DirectoryPage> list(String path, String startAfter, int limit) {
    String p = normalize(path);
    return meta.call(MetaRequestProto.newBuilder().setReadDir(ReadDirRequestProto.newBuilder().setPath(p)
        .setStartAfter(startAfter == null ? "" : startAfter).setLimit(limit))).thenApply(r -> {
          List<FileStatus> out = new ArrayList<>();
          for (DirEntryProto e : r.getEntries().getEntriesList()) {
            out.add(FileStatus.of(p.equals("/") ? "/" + e.getName() : p + "/" + e.getName(), e.getInode()));
          }
          return new DirectoryPage(out, r.getEntries().getMore());
        });
  }

  /**
   * Creates a directory; with {@code parents}, also its missing ancestors, and an existing
   * directory is fine (given a {@code defaultLayout}, it takes it as its new default). A
   * {@code defaultLayout} is inherited by files created below, down to a directory with its own.
   * One wider than the cluster's data servers is refused unless it says
   * {@link CreateOptions#widerThanCluster}.
   */
  public CompletableFuture<FileStatus> mkdir(String path, boolean parents, CreateOptions defaultLayout) {
    String p = normalize(path);
    MkdirRequestProto.Builder m = MkdirRequestProto.newBuilder().setPath(p).setParents(parents);
    if (defaultLayout != null) {
      try {
        LayoutPolicyProto policy = defaultLayout.policy(1 << 20);
        if (policy != null) {
          m.setDefaultLayout(policy).setHasDefaultLayout(true).setForce(defaultLayout.widerThanCluster());
        }
      } catch (IllegalArgumentException e) {
        return CompletableFuture.failedFuture(new TesseraException(StatusProto.INVALID_ARGUMENT, e.getMessage()));
      }
    }
    return meta.call(MetaRequestProto.newBuilder().setMkdir(m)).thenApply(r -> FileStatus.of(p, r.getInode()));
  }

  /** Renames atomically, with POSIX rules for an existing target. */
  public CompletableFuture<Void> rename(String source, String target) {
    return rename(source, target, true);
  }

  /**
   * Renames atomically; an existing target is replaced by POSIX rules if {@code replace}, else
   * the rename fails with EXISTS and changes nothing.
   */
  public CompletableFuture<Void> rename(String source, String target, boolean replace) {
    String s = normalize(source);
    String t = normalize(target);
    return meta.call(MetaRequestProto.newBuilder().setRename(RenameRequestProto.newBuilder().setSource(s)
        .setTarget(t).setNoReplace(!replace))).thenApply(r -> null);
  }

  /**
   * Removes a file, or a directory: an empty one, or with {@code recursive} a whole tree.
   * Space on the data servers is freed in the background.
   */
  public CompletableFuture<Void> delete(String path, boolean recursive) {
    String p = normalize(path);
    return meta.call(MetaRequestProto.newBuilder().setRemove(RemoveRequestProto.newBuilder().setPath(p)
        .setRecursive(recursive))).thenApply(r -> null);
  }

  /** Changes permission bits and/or the modification time (null leaves it). */
  public CompletableFuture<FileStatus> setAttributes(String path, Integer mode, java.time.Instant modified) {
    String p = normalize(path);
    io.tessera.common.proto.SetAttrRequestProto.Builder a = io.tessera.common.proto.SetAttrRequestProto.newBuilder()
        .setPath(p);
    if (mode != null) {
      a.setSetMode(true).setMode(mode);
    }
    if (modified != null) {
      a.setSetMtime(true).setMtimeMs(modified.toEpochMilli());
    }
    return meta.call(MetaRequestProto.newBuilder().setSetAttr(a)).thenApply(r -> FileStatus.of(p, r.getInode()));
  }

  /** The meta replicas, which one leads, and every data server's state. */
  public CompletableFuture<ClusterStatus> clusterStatus() {
    return meta.call(MetaRequestProto.newBuilder().setClusterStatus(ClusterStatusRequestProto.getDefaultInstance()))
        .thenApply(r -> {
          ClusterStatusResponseProto c = r.getCluster();
          List<ClusterStatus.Replica> replicas = c.getReplicasList().stream()
              .map(x -> new ClusterStatus.Replica(x.getId(), x.getAddress(), x.getLeader(), x.getLastContactMsAgo()))
              .toList();
          List<ClusterStatus.DataServer> servers = c.getDataServersList().stream()
              .map(x -> new ClusterStatus.DataServer(x.getId(), x.getAddress(), stateName(x.getState()),
                  x.getCapacityBytes(), x.getFreeBytes(), x.getUsedBytes(), x.getLastHeartbeatMsAgo(),
                  x.getFilesToRebuild(), x.getDownSinceMs(), x.getFilesPlaced(), x.getDecommissioned(),
                  x.getLeftoverFiles())).toList();
          List<ClusterStatus.Rebuild> rebuilds = c.getRecovery().getRebuildsList().stream()
              .map(x -> new ClusterStatus.Rebuild(x.getServer(), x.getFilesLeft(), x.getBytesLeft(), x.getFilesDone(),
                  x.getBytesDone(), x.getRateBytesPerS(), x.getFailures(), x.getLastError(), x.getDraining())).toList();
          return new ClusterStatus(replicas, servers, c.getEpoch(),
              new ClusterStatus.Recovery(rebuilds, c.getRecovery().getRateLimitBytesPerS(),
                  c.getRecovery().getFilesWithoutParity()), c.getFilesToReclaim());
        });
  }

  private static String stateName(DataServerStateProto s) {
    return switch (s) {
      case UP -> "up";
      case RECOVERING -> "recovering";
      case DRAINING -> "draining";
      case RETIRED -> "retired";
      default -> "down";
    };
  }

  /**
   * Decommissions a data server: it takes no new files and recovery moves every unit it holds to
   * other servers (watch {@link #clusterStatus()}: it ends "retired", and may then be stopped).
   * Completes with the meta leader's one-line summary.
   */
  public CompletableFuture<String> decommission(String serverId) {
    return meta.call(MetaRequestProto.newBuilder().setDecommission(
        io.tessera.common.proto.DecommissionRequestProto.newBuilder().setServer(serverId))).thenApply(r -> r.getMessage());
  }

  /** Takes a decommission back: the server recovers, then takes new files again. */
  public CompletableFuture<String> recommission(String serverId) {
    return meta.call(MetaRequestProto.newBuilder().setDecommission(io.tessera.common.proto.DecommissionRequestProto
        .newBuilder().setServer(serverId).setUndo(true))).thenApply(r -> r.getMessage());
  }

  /**
   * Forgets a retired data server that no longer runs: {@link #clusterStatus()} stops listing
   * it. Refused for a server that is not retired or still sends heartbeats, and, unless
   * {@code force}, while snapshots taken before it retired exist (moves copy live versions
   * only, so it may hold the only copies of some of their shard versions).
   */
  public CompletableFuture<String> removeServer(String serverId, boolean force) {
    return meta.call(MetaRequestProto.newBuilder().setDecommission(io.tessera.common.proto.DecommissionRequestProto
        .newBuilder().setServer(serverId).setRemove(true).setForce(force))).thenApply(r -> r.getMessage());
  }

  /** Takes a snapshot of the whole file system (the meta leader retries busy attempts). */
  public CompletableFuture<SnapshotInfo> createSnapshot(String name) {
    return meta.call(MetaRequestProto.newBuilder().setSnapshotCreate(SnapshotCreateRequestProto.newBuilder()
        .setName(name))).thenApply(r -> info(r.getSnapshot(), -1));
  }

  /** Every snapshot, oldest first. */
  public CompletableFuture<List<SnapshotInfo>> listSnapshots() {
    return meta.call(MetaRequestProto.newBuilder().setSnapshotList(SnapshotListRequestProto.getDefaultInstance()))
        .thenApply(r -> r.getSnapshots().getSnapshotsList().stream().map(s -> info(s, -1)).toList());
  }

  /** Every snapshot with the bytes only it holds, summed over every data server. */
  public CompletableFuture<List<SnapshotInfo>> listSnapshotsWithUsage() {
    return listSnapshots().thenCompose(list -> scanVersions(ScanVersionsRequestProto.newBuilder().setUsage(true))
        .thenApply(scans -> {
          java.util.Map<Long, Long> bytes = new java.util.HashMap<>();
          boolean complete = scans.stream().allMatch(java.util.Objects::nonNull);
          for (ScanVersionsResponseProto scan : scans) {
            for (int i = 0; scan != null && i < scan.getEpochsCount(); i++) {
              bytes.merge(scan.getEpochs(i), scan.getExclusiveBytes(i), Long::sum);
            }
          }
          return list.stream().map(s -> new SnapshotInfo(s.name(), s.epoch(), s.created(), s.tookMillis(),
              s.attempts(), s.missingServers(), complete ? bytes.getOrDefault(s.epoch(), 0L) : -1)).toList();
        }));
  }

  /** Deletes a snapshot. */
  public CompletableFuture<Void> deleteSnapshot(String name) {
    return meta.call(MetaRequestProto.newBuilder().setSnapshotDelete(SnapshotDeleteRequestProto.newBuilder()
        .setName(name))).thenApply(r -> null);
  }

  /**
   * Ids of files with shard versions stamped in {@code (after, upTo]}, over every data server;
   * null when a data server could not be asked (the answer would be incomplete).
   */
  public CompletableFuture<java.util.Set<Long>> filesWritten(long after, long upTo) {
    return scanVersions(ScanVersionsRequestProto.newBuilder().setWritten(true).setWrittenAfter(after)
        .setWrittenUpTo(upTo)).thenApply(scans -> {
          java.util.Set<Long> out = new java.util.HashSet<>();
          for (ScanVersionsResponseProto scan : scans) {
            if (scan == null) {
              return null;
            }
            out.addAll(scan.getWrittenFilesList());
          }
          return out;
        });
  }

  /** One scan per registered data server (null where it is down or failed). */
  private CompletableFuture<List<ScanVersionsResponseProto>> scanVersions(ScanVersionsRequestProto.Builder scan) {
    return clusterStatus().thenCompose(cluster -> {
      List<CompletableFuture<ScanVersionsResponseProto>> calls = new ArrayList<>();
      for (ClusterStatus.DataServer ds : cluster.dataServers()) {
        calls.add(!ds.up() ? CompletableFuture.completedFuture(null)
            : data.call(ds.id(), io.tessera.common.proto.DataRequestProto.newBuilder().setScanVersions(scan), null)
                .handle((reply, err) -> {
                  if (err != null) {
                    return null;
                  }
                  reply.payload().release();
                  return reply.header().getVersions();
                }));
      }
      return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
          .thenApply(v -> calls.stream().map(CompletableFuture::join).toList());
    });
  }

  private static SnapshotInfo info(SnapshotProto s, long exclusiveBytes) {
    return new SnapshotInfo(s.getName(), s.getEpoch(), java.time.Instant.ofEpochMilli(s.getCreatedMs()), s.getTookMs(),
        s.getAttempts(), List.copyOf(s.getMissingServersList()), exclusiveBytes);
  }

  /** The blocking facade over this client. */
  public TesseraFileSystem blocking() {
    return new TesseraFileSystem(this);
  }

  /**
   * Checks and normalises an absolute path: repeated and trailing slashes are dropped.
   *
   * @throws IllegalArgumentException for a relative or empty path
   */
  public static String normalize(String path) {
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

  /** fsck of one regular file (blocking: it reads every stripe's state, or every byte with verification). */
  FileCheck check(String path, boolean verifyParity) throws java.io.IOException {
    String p = normalize(path);
    InodeProto in = Futures.get(meta.call(MetaRequestProto.newBuilder().setGetAttr(
        GetAttrRequestProto.newBuilder().setPath(p)))).getInode();
    if (in.getType() == FileTypeProto.DIRECTORY) {
      throw new TesseraException(StatusProto.IS_DIRECTORY, p + " is a directory");
    }
    StripeLayout layout = StripeLayout.of(in.getLayout());
    FileTarget target = FileTarget.of(in);
    ShardChecker.Result r = new ShardChecker(data).check(target, in.getSize(), verifyParity);
    return new FileCheck(p, layout.toString(), r.stripes(), r.parityVerified(), r.parityMismatches(),
        r.missingShards(), r.unreadableStripes(), List.copyOf(in.getStaleServersList()),
        List.copyOf(r.damagedServers()), List.copyOf(r.mismatchedStripes()), List.copyOf(r.unprotectedStripes()),
        in.getId(), layout.parityUnits() > 0);
  }

  /**
   * Asks recovery to repair what a check found: the damaged servers' shards of the file are
   * marked stale (recovery rewrites them in the background), and the mismatched or unprotected
   * stripes get their parity recomputed from their data units (done when this completes).
   */
  public CompletableFuture<Void> repair(FileCheck check) {
    List<CompletableFuture<?>> calls = new java.util.ArrayList<>();
    if (!check.damagedServers().isEmpty()) {
      calls.add(meta.call(MetaRequestProto.newBuilder().setSetAttr(io.tessera.common.proto.SetAttrRequestProto
          .newBuilder().setFileId(check.fileId()).addAllAddStaleServers(check.damagedServers()))));
    }
    List<Long> stripes = check.stripesToRecompute();
    for (int i = 0; i < stripes.size(); i += MAX_REPAIR_STRIPES) {
      calls.add(meta.call(MetaRequestProto.newBuilder().setRepairStripes(io.tessera.common.proto
          .RepairStripesRequestProto.newBuilder().setFileId(check.fileId())
          .addAllStripes(stripes.subList(i, Math.min(stripes.size(), i + MAX_REPAIR_STRIPES))))));
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  /** Counters of this client's I/O: lock refusals, degraded writes and reads. */
  public IoCounters ioCounters() {
    return counters;
  }

  /**
   * Fault injection for tests: {@code hook} runs in every parity write after its stripes are
   * locked and read, before anything is written (throwing from it abandons the write with
   * its locks held, as a crash would).
   */
  public void injectBetweenWritePhases(Runnable hook) {
    writer.betweenPhasesForTesting(hook);
  }

  /**
   * Fault injection for tests: {@code hook} runs in every parity write's phase 2 once half of
   * its servers stored their units (blocking or throwing there leaves torn stripes behind).
   */
  public void injectMidPhase2(Runnable hook) {
    writer.midPhase2ForTesting(hook);
  }

  @Override
  public void close() {
    pool.close();
    metaPool.close();
    coding.shutdownNow();
  }
}
