package io.tessera.client.admin;

import io.tessera.client.Futures;
import io.tessera.client.VirtualFileSystem;
import io.tessera.client.internal.DataClient;
import io.tessera.client.internal.FileTarget;
import io.tessera.client.internal.MetaClient;
import io.tessera.client.internal.ShardChecker;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.ClusterStatusRequestProto;
import io.tessera.common.proto.ClusterStatusResponseProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.DecommissionRequestProto;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LogStateProto;
import io.tessera.common.proto.LogWriterProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RepairStripesRequestProto;
import io.tessera.common.proto.ScanVersionsRequestProto;
import io.tessera.common.proto.ScanVersionsResponseProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Administration of the cluster a client is connected to: servers and their states,
 * decommissioning, snapshots, recovery progress and fsck with repair. The CLI, the console and the
 * NFS gateway all act through this one API, so they never disagree. Obtain it from a client ({@code
 * fs.admin()}); it shares that client's connections.
 */
public final class ClusterAdmin {
  /** Most stripes one repair request names (meta.proto RepairStripesRequestProto). */
  private static final int MAX_REPAIR_STRIPES = 4096;

  private final MetaClient meta;
  private final DataClient data;
  private final Snapshots snapshots;
  private final QosAdmin qos;
  private final ConsoleAdmin console;
  private final CredentialsAdmin credentials;

  private final RpcClientPool pool;
  private final VirtualFileSystem fs;

  /**
   * For the client only: the admin API over a client's meta and data connections, reaching files (a
   * snapshot restore copies them) through {@code fs}.
   */
  public ClusterAdmin(MetaClient meta, DataClient data, RpcClientPool pool, VirtualFileSystem fs) {
    this.meta = meta;
    this.data = data;
    this.pool = pool;
    this.fs = fs;
    this.snapshots = new Snapshots(this, meta, fs);
    this.qos = new QosAdmin(meta, pool, this);
    this.console = new ConsoleAdmin(meta);
    this.credentials = new CredentialsAdmin(meta);
  }

  /**
   * The same administration acting for {@code user}: every request is checked and done as that
   * user, as {@link VirtualFileSystem#actingFor} does for the namespace (a trusted proxy only).
   */
  public ClusterAdmin actingFor(ActorProto user) {
    return new ClusterAdmin(meta.actingFor(user), data, pool, fs.actingFor(user));
  }

  /** Issued credentials and their revocation (admins only). */
  public CredentialsAdmin credentials() {
    return credentials;
  }

  /** Console tokens and the audit log of console actions. */
  public ConsoleAdmin console() {
    return console;
  }

  /** Per-application QoS settings, and the shares the proxies achieve. */
  public QosAdmin qos() {
    return qos;
  }

  /** The meta replicas, which one leads, every data server's state and recovery's progress. */
  public ClusterStatus status() throws IOException {
    return Futures.get(statusAsync());
  }

  /** {@link #status()} without waiting. */
  public CompletableFuture<ClusterStatus> statusAsync() {
    return meta.call(
            MetaRequestProto.newBuilder()
                .setClusterStatus(ClusterStatusRequestProto.getDefaultInstance()))
        .thenApply(r -> status(r.getCluster()));
  }

  private static ClusterStatus status(ClusterStatusResponseProto c) {
    List<ClusterStatus.Replica> replicas =
        c.getReplicasList().stream()
            .map(
                x ->
                    new ClusterStatus.Replica(
                        x.getId(), x.getAddress(), x.getLeader(), x.getLastContactMsAgo()))
            .toList();
    List<ClusterStatus.DataServer> servers =
        c.getDataServersList().stream()
            .map(
                x ->
                    new ClusterStatus.DataServer(
                        x.getId(),
                        x.getAddress(),
                        stateName(x.getState()),
                        x.getCapacityBytes(),
                        x.getFreeBytes(),
                        x.getUsedBytes(),
                        x.getLastHeartbeatMsAgo(),
                        x.getFilesToRebuild(),
                        x.getDownSinceMs(),
                        x.getFilesPlaced(),
                        x.getDecommissioned(),
                        x.getLeftoverFiles(),
                        x.getProxyAddress(),
                        x.getClientBytesPerS(),
                        x.getClientRequestsPerS(),
                        x.getFilesystem()))
            .toList();
    List<ClusterStatus.Rebuild> rebuilds =
        c.getRecovery().getRebuildsList().stream()
            .map(
                x ->
                    new ClusterStatus.Rebuild(
                        x.getServer(),
                        x.getFilesLeft(),
                        x.getBytesLeft(),
                        x.getFilesDone(),
                        x.getBytesDone(),
                        x.getRateBytesPerS(),
                        x.getFailures(),
                        x.getLastError(),
                        x.getDraining()))
            .toList();
    return new ClusterStatus(
        replicas,
        servers,
        c.getEpoch(),
        new ClusterStatus.Recovery(
            rebuilds,
            c.getRecovery().getRateLimitBytesPerS(),
            c.getRecovery().getFilesWithoutParity()),
        c.getFilesToReclaim());
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
   * other servers (watch {@link #status()}: it ends "retired", and may then be stopped). Returns
   * the meta leader's one-line summary.
   */
  public String decommission(String serverId) throws IOException {
    return decommissionCall(DecommissionRequestProto.newBuilder().setServer(serverId));
  }

  /** Takes a decommission back: the server recovers, then takes new files again. */
  public String recommission(String serverId) throws IOException {
    return decommissionCall(
        DecommissionRequestProto.newBuilder().setServer(serverId).setUndo(true));
  }

  /**
   * Forgets a retired data server that no longer runs: {@link #status()} stops listing it. Refused
   * for a server that is not retired or still sends heartbeats, and, unless {@code force}, while
   * snapshots taken before it retired exist (moves copy live versions only, so it may hold the only
   * copies of some of their shard versions).
   */
  public String removeServer(String serverId, boolean force) throws IOException {
    return decommissionCall(
        DecommissionRequestProto.newBuilder().setServer(serverId).setRemove(true).setForce(force));
  }

  private String decommissionCall(DecommissionRequestProto.Builder request) throws IOException {
    return Futures.get(meta.call(MetaRequestProto.newBuilder().setDecommission(request)))
        .getMessage();
  }

  /** Snapshots of the whole file system: create, list, diff, restore, delete. */
  public Snapshots snapshots() {
    return snapshots;
  }

  /**
   * Checks one regular file's shards: which are missing, which stripes cannot be read, and with
   * {@code verifyParity} whether every stripe's parity matches its data (reads it all).
   */
  public FileCheck check(String path, boolean verifyParity) throws IOException {
    String p = VirtualFileSystem.normalize(path);
    MetaResponseProto opened =
        Futures.get(
            meta.call(
                MetaRequestProto.newBuilder()
                    .setGetAttr(GetAttrRequestProto.newBuilder().setPath(p))));
    InodeProto in = opened.getInode();
    if (in.getType() == FileTypeProto.DIRECTORY) {
      throw new TesseraException(StatusProto.IS_DIRECTORY, p + " is a directory");
    }
    if (in.getLayout().getKind() == LayoutKindProto.LOG) {
      return checkLogs(p, in, verifyParity);
    }
    return checkStriped(p, opened, verifyParity);
  }

  /** A striped file: as answered by the meta group at {@code p} (its inode and token). */
  private FileCheck checkStriped(String p, MetaResponseProto opened, boolean verifyParity)
      throws IOException {
    InodeProto in = opened.getInode();
    StripeLayout layout = StripeLayout.of(in.getLayout());
    ShardChecker.Result r =
        new ShardChecker(data)
            .check(FileTarget.of(opened, p, FileTarget.Renewer.NONE), in.getSize(), verifyParity);
    return new FileCheck(
        p,
        layout.toString(),
        r.stripes(),
        r.parityVerified(),
        r.parityMismatches(),
        r.missingShards(),
        r.unreadableStripes(),
        List.copyOf(in.getStaleServersList()),
        List.copyOf(r.damagedServers()),
        List.copyOf(r.mismatchedStripes()),
        List.copyOf(r.unprotectedStripes()),
        in.getId(),
        layout.parityUnits() > 0);
  }

  /** A log file: each of its writers' logs (and its flattened index) checked as a striped file. */
  private FileCheck checkLogs(String p, InodeProto in, boolean verifyParity) throws IOException {
    List<FileCheck> parts = new ArrayList<>();
    LogStateProto s = in.getLog();
    for (LogWriterProto w : s.getWritersList()) {
      if (w.getDataFileId() != 0) {
        parts.add(
            checkPart(p + " (writer " + w.getWriter() + " data)", w.getDataFileId(), verifyParity));
      }
      parts.add(
          checkPart(p + " (writer " + w.getWriter() + " index)", w.getIndexFileId(), verifyParity));
    }
    if (s.getFlatIndexFileId() != 0) {
      parts.add(checkPart(p + " (flattened index)", s.getFlatIndexFileId(), verifyParity));
    }
    var l = in.getLayout();
    String layout =
        "log, "
            + new io.tessera.client.LayoutPolicy(
                l.getDataUnits(), l.getParityUnits(), l.getStripeUnit(), false);
    return FileCheck.ofLogs(p, layout, in.getId(), l.getParityUnits() > 0, parts);
  }

  private FileCheck checkPart(String name, long partId, boolean verifyParity) throws IOException {
    MetaResponseProto opened =
        Futures.get(
            meta.call(
                MetaRequestProto.newBuilder()
                    .setGetAttr(GetAttrRequestProto.newBuilder().setFileId(partId))));
    return checkStriped(name, opened, verifyParity);
  }

  /**
   * Repairs what {@link #check} found: the damaged servers' shards of the file are marked stale
   * (recovery rewrites them in the background) and the mismatched or unprotected stripes get their
   * parity recomputed from their data units before this returns.
   */
  public void repair(FileCheck check) throws IOException {
    for (FileCheck part : check.parts()) {
      repair(part);
    }
    List<CompletableFuture<?>> calls = new ArrayList<>();
    if (!check.damagedServers().isEmpty()) {
      calls.add(
          meta.call(
              MetaRequestProto.newBuilder()
                  .setSetAttr(
                      SetAttrRequestProto.newBuilder()
                          .setFileId(check.fileId())
                          .addAllAddStaleServers(check.damagedServers()))));
    }
    List<Long> stripes = check.stripesToRecompute();
    for (int i = 0; i < stripes.size(); i += MAX_REPAIR_STRIPES) {
      calls.add(
          meta.call(
              MetaRequestProto.newBuilder()
                  .setRepairStripes(
                      RepairStripesRequestProto.newBuilder()
                          .setFileId(check.fileId())
                          .addAllStripes(
                              stripes.subList(
                                  i, Math.min(stripes.size(), i + MAX_REPAIR_STRIPES))))));
    }
    Futures.get(CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)));
  }

  /** One scan per registered data server (null where it is down or failed). */
  CompletableFuture<List<ScanVersionsResponseProto>> scanVersions(
      ScanVersionsRequestProto.Builder scan) {
    return statusAsync()
        .thenCompose(
            cluster -> {
              List<CompletableFuture<ScanVersionsResponseProto>> calls = new ArrayList<>();
              for (ClusterStatus.DataServer ds : cluster.dataServers()) {
                calls.add(
                    !ds.up()
                        ? CompletableFuture.completedFuture(null)
                        : data.call(
                                ds.id(), DataRequestProto.newBuilder().setScanVersions(scan), null)
                            .handle(
                                (reply, err) -> {
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
}
