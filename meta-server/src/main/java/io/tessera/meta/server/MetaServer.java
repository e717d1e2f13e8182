package io.tessera.meta.server;

import io.tessera.common.config.Config;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.platform.CommonPool;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.platform.SpaceGuard;
import io.tessera.common.platform.StartupTimer;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.rpc.FrameBudget;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.meta.auth.AuditTrail;
import io.tessera.meta.auth.CallerGate;
import io.tessera.meta.auth.SecurityUpkeep;
import io.tessera.meta.auth.TokenIssuer;
import io.tessera.meta.ratis.MetaStateMachine;
import io.tessera.meta.ratis.RaftPortGuard;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.recovery.RecoveryCoordinator;
import io.tessera.meta.regions.RegionHome;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.registry.PlacementPolicy;
import io.tessera.meta.snapshot.SnapshotCoordinator;
import io.tessera.meta.snapshot.SnapshotViews;
import io.tessera.meta.state.Actor;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.Replies;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A meta replica process: one member of the Ratis group that owns the namespace, plus the endpoint
 * clients and data servers talk to.
 */
public final class MetaServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(MetaServer.class);

  /** All Tessera meta groups share one id: a process serves one cluster. */
  public static final RaftGroupId GROUP_ID =
      RaftGroupId.valueOf(UUID.nameUUIDFromBytes("tessera-meta".getBytes(StandardCharsets.UTF_8)));

  private final MetaPeer self;
  private final RaftServer raftServer;
  private final MetaStateMachine stateMachine;
  private final RaftSubmitter raft;
  private final RpcServer rpc;
  private final RpcClientPool serverPool;
  private final FileReclaimer reclaimer;
  private final SnapshotCoordinator snapshots;
  private final RecoveryCoordinator recovery;
  private final SecurityUpkeep upkeep;
  private final RegionHome regions;
  private final GroupSpace groupSpace;
  private final ServerMetrics metrics;
  private volatile boolean closing;
  private final ScheduledExecutorService watchdog = DaemonTimer.named("raft-watchdog");

  private MetaServer(
      MetaPeer self,
      RaftServer raftServer,
      MetaStateMachine sm,
      RaftSubmitter raft,
      RpcServer rpc,
      RpcClientPool serverPool,
      FileReclaimer reclaimer,
      SnapshotCoordinator snapshots,
      RecoveryCoordinator recovery,
      SecurityUpkeep upkeep,
      RegionHome regions,
      GroupSpace groupSpace,
      ServerMetrics metrics) {
    this.groupSpace = groupSpace;
    this.upkeep = upkeep;
    this.regions = regions;
    this.metrics = metrics;
    this.recovery = recovery;
    this.snapshots = snapshots;
    this.self = self;
    this.raftServer = raftServer;
    this.stateMachine = sm;
    this.raft = raft;
    this.rpc = rpc;
    this.serverPool = serverPool;
    this.reclaimer = reclaimer;
  }

  /** Starts replica {@code selfId} of the group {@code peers}, keeping its state in {@code dir}. */
  public static MetaServer start(String selfId, List<MetaPeer> peers, Path dir, Config config)
      throws IOException, InterruptedException {
    StartupTimer startup = StartupTimer.sinceJvmStart();
    MetaPeer self =
        peers.stream()
            .filter(p -> p.id().equals(selfId))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "--id " + selfId + " is not one of the peers " + peers));
    Files.createDirectories(dir);
    TransportSecurity security = TransportSecurity.forServer(config, selfId, Identity.Role.META);
    startup.mark("TLS");
    Duration hbInterval = config.get(MetaServerConfigKeys.DataServers.HEARTBEAT_INTERVAL);
    DataServerRegistry registry =
        new DataServerRegistry(
            config.get(MetaServerConfigKeys.DataServers.DATA_SERVER_TIMEOUT), hbInterval);
    MetaStateMachine sm =
        new MetaStateMachine(
            dir.resolve("namespace"),
            new SnapshotViews(dir.resolve("fs-snapshots")),
            registry,
            hbInterval);

    List<RaftPeer> raftPeers = new ArrayList<>();
    for (MetaPeer p : peers) {
      raftPeers.add(
          RaftPeer.newBuilder()
              .setId(RaftPeerId.valueOf(p.id()))
              .setAddress(p.raftAddress())
              .setClientAddress(p.clientAddress())
              .build());
    }
    RaftServer server =
        RaftServer.newBuilder()
            .setServerId(RaftPeerId.valueOf(self.id()))
            .setGroup(RaftGroup.valueOf(GROUP_ID, raftPeers))
            .setProperties(RaftSettings.properties(self, dir, config, security))
            .setParameters(RaftSettings.parameters(security))
            .setStateMachine(sm)
            .setOption(
                Files.isDirectory(dir.resolve("raft").resolve(GROUP_ID.getUuid().toString()))
                    ? RaftStorage.StartupOption.RECOVER
                    : RaftStorage.StartupOption.FORMAT)
            .build();
    server.start();
    startup.mark("Raft log and namespace store");
    if (config.get(MetaServerConfigKeys.Raft.RAFT_TRANSPORT).equals("netty")) {
      RaftPortGuard.install(
          server,
          new FrameBudget(config.get(RpcConfigKeys.INCOMPLETE_FRAMES)),
          config.get(RpcConfigKeys.STALLED_FRAME_TIMEOUT));
    }
    RaftSubmitter raft = new RaftSubmitter(server, GROUP_ID);
    sm.acceptOnlyFrom(raft.clientId());
    MetaMetrics metrics = new MetaMetrics(config);
    TxnBatcher batcher =
        new TxnBatcher(
            raft::write,
            config.get(MetaServerConfigKeys.Raft.MAX_BATCH),
            config.get(MetaServerConfigKeys.Raft.MAX_ENTRIES_IN_FLIGHT),
            config.get(MetaServerConfigKeys.Raft.GROUP_COMMIT_ABOVE),
            metrics::committed);
    PlacementPolicy placement =
        new PlacementPolicy(
            config.get(MetaServerConfigKeys.Placement.MIN_FREE_SPACE),
            config.get(MetaServerConfigKeys.Placement.CREATE_LIVE_BEYOND_K));
    int maxFrame = RpcConfigKeys.maxFrameBytes(config);
    RpcClientPool serverPool =
        new RpcClientPool(
            "meta-" + self.id() + "-calls",
            1,
            maxFrame,
            30_000,
            2000,
            RpcConfigKeys.silenceLimitMillis(config),
            security);
    SnapshotCoordinator snapshots =
        new SnapshotCoordinator(
            batcher::submitAlone,
            sm::store,
            registry,
            serverPool,
            raft::isLeader,
            new SnapshotCoordinator.Settings(
                config.get(MetaServerConfigKeys.Snapshots.FS_SNAPSHOT_DRAIN_TIMEOUT),
                config.get(MetaServerConfigKeys.Snapshots.FS_SNAPSHOT_GIVE_UP)));
    RegionHome regions =
        new RegionHome(raft, sm::store, config.get(MetaServerConfigKeys.Regions.REGION_LEASE));
    RecoveryCoordinator recovery =
        new RecoveryCoordinator(
            batcher::submit,
            sm::store,
            registry,
            serverPool,
            raft::isLeader,
            new RecoveryCoordinator.Settings(
                config.get(MetaServerConfigKeys.DataServers.DATA_SERVER_TIMEOUT),
                config.get(MetaServerConfigKeys.Recovery.REBUILD_RATE),
                config.get(MetaServerConfigKeys.Recovery.REBUILD_RATE_UNDER_LOAD),
                config.get(MetaServerConfigKeys.Recovery.REBUILD_LOCK_SHARE_UNDER_LOAD),
                config.get(MetaServerConfigKeys.Recovery.REBUILD_LOCK_LEASE),
                config.get(MetaServerConfigKeys.Recovery.REPLACE_AFTER),
                config.get(MetaServerConfigKeys.Placement.MIN_FREE_SPACE)));
    GroupSpace groupSpace =
        new GroupSpace(
            self.id(),
            new SpaceGuard(
                dir.toFile(),
                config.get(MetaServerConfigKeys.Raft.STATE_MIN_FREE),
                "meta replica " + selfId,
                MetaServerConfigKeys.Raft.STATE_MIN_FREE.key()),
            raft,
            serverPool);
    RpcServer rpc;
    try {
      rpc =
          RpcServer.start(
              "meta-" + self.id(),
              new InetSocketAddress(RaftSettings.bindHost(self, config), self.clientPort()),
              Map.of(
                  Service.META,
                      new MetaRequestHandler(
                          raft,
                          batcher,
                          sm::store,
                          registry,
                          new NewFilePlacement(
                              sm::store,
                              registry,
                              placement,
                              config.get(MetaServerConfigKeys.Placement.DEFAULT_LAYOUT),
                              (int)
                                  (long)
                                      config.get(
                                          MetaServerConfigKeys.Placement.DEFAULT_STRIPE_UNIT)),
                          snapshots,
                          recovery,
                          regions,
                          metrics,
                          new CallerGate(config.get(MetaServerConfigKeys.Security.SUPERUSER_GROUP)),
                          new TokenIssuer(
                              sm::store,
                              MetaServerConfigKeys.Security.tokenLifetime(config),
                              System::currentTimeMillis),
                          new AuditTrail(
                              batcher::submit,
                              config.get(MetaServerConfigKeys.Security.AUDIT_KEEP),
                              config.get(MetaServerConfigKeys.Security.AUDIT_ENTRIES),
                              System::currentTimeMillis),
                          groupSpace),
                  Service.HEARTBEAT, new HeartbeatHandler(raft, batcher, recovery.clientId())),
              RpcConfigKeys.serverLimits(config),
              security);
    } catch (RuntimeException e) {
      server.close();
      serverPool.close();
      throw new IOException(
          "meta server "
              + self.id()
              + " cannot listen on "
              + self.clientAddress()
              + ": "
              + e.getMessage(),
          e);
    }
    snapshots.start();
    FileReclaimer reclaimer =
        new FileReclaimer(
            raft,
            batcher,
            sm::store,
            registry,
            serverPool,
            config.get(MetaServerConfigKeys.DataServers.RECLAIM_PER_SECOND));
    reclaimer.start();
    recovery.start();
    regions.start();
    groupSpace.start();
    SecurityUpkeep upkeep =
        new SecurityUpkeep(
            sm::store,
            security.revocations(),
            raft::isLeader,
            batcher::submitAlone,
            config.get(MetaServerConfigKeys.Security.ACCESS_KEY_ROLL));
    upkeep.start();
    metrics.watch(sm, raft, recovery);
    startup.mark("client port and services");
    LOG.info(
        "Meta server {} serving clients on {} (raft {}), state in {}; ready {}",
        self.id(),
        self.clientAddress(),
        self.raftAddress(),
        dir,
        startup.account());
    if (!CommonPool.pooled()) {
      LOG.warn(
          "Meta server {}: this JVM's common thread pool has fewer than two threads, so Ratis starts a thread"
              + " for every log entry a follower appends; start the JVM with -D{}=2",
          self.id(),
          CommonPool.PARALLELISM);
    }
    return new MetaServer(
        self,
        server,
        sm,
        raft,
        rpc,
        serverPool,
        reclaimer,
        snapshots,
        recovery,
        upkeep,
        regions,
        groupSpace,
        metrics.metrics);
  }

  /**
   * Calls {@code onDeath} once if the Raft server stops without {@link #close()} (a fatal error
   * inside Ratis): a process must not linger as a replica that no longer votes.
   */
  public void onRaftDeath(Runnable onDeath) {
    watchdog.scheduleWithFixedDelay(
        () -> {
          var state = raftServer.getLifeCycleState();
          if (!closing && (state.isClosingOrClosed() || state == LifeCycle.State.EXCEPTION)) {
            LOG.error(
                "Meta server {}: its Raft server stopped ({}); see the errors above",
                self.id(),
                state);
            watchdog.shutdown();
            onDeath.run();
          }
        },
        1,
        1,
        TimeUnit.SECONDS);
  }

  public String id() {
    return self.id();
  }

  /** What this replica shows at /metrics. */
  public ServerMetrics metrics() {
    return metrics;
  }

  public boolean isLeader() {
    return raft.isLeader();
  }

  /** This replica's committed namespace, for tools and tests (read-only use). */
  public NamespaceStore namespace() {
    return stateMachine.store();
  }

  /** getattr of a path under /.snapshots as this replica would answer it, for tools and tests. */
  public MetaResponseProto snapshotAttr(String path) {
    try {
      return stateMachine
          .snapshotViews()
          .getAttr(
              stateMachine.store(),
              GetAttrRequestProto.newBuilder().setPath(path).build(),
              Actor.CLUSTER);
    } catch (NamespaceException e) {
      return Replies.error(e.status(), e.getMessage());
    }
  }

  /** How many times this replica caught up by installing the leader's checkpoint. */
  public int checkpointsInstalled() {
    return stateMachine.checkpointsInstalled();
  }

  public String clientAddress() {
    return self.clientAddress();
  }

  @Override
  public void close() throws IOException {
    closing = true;
    watchdog.shutdownNow();
    upkeep.close();
    groupSpace.close();
    reclaimer.close();
    recovery.close();
    regions.close();
    snapshots.close();
    rpc.close();
    raftServer.close();
    serverPool.close();
    LOG.info("Meta server {} stopped", self.id());
  }
}
