package io.tessera.data.server;

import io.tessera.common.cluster.Heartbeats;
import io.tessera.common.config.Config;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.platform.SpaceGuard;
import io.tessera.common.platform.StartupTimer;
import io.tessera.common.rpc.LeaderFollowingCaller;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.AccessTokens;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.op.DataOps;
import io.tessera.data.recovery.CorruptionReport;
import io.tessera.data.recovery.Scrubber;
import io.tessera.data.recovery.ServingState;
import io.tessera.data.snapshot.SnapshotParticipant;
import io.tessera.data.snapshot.WriteGate;
import io.tessera.data.store.GarbageCollector;
import io.tessera.data.store.RocksShardStore;
import io.tessera.data.store.ShardStore;
import io.tessera.data.store.ValueFileOptions;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A data server process: its shard store, its network endpoint, and its heartbeats. */
public final class DataServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(DataServer.class);

  private final String id;
  private final ShardStore store;
  private final ExecutorService workers;
  private final ScheduledExecutorService timer;
  private final RpcServer rpc;
  private final RpcClientPool metaPool;
  private final HeartbeatSender heartbeats;
  private final String address;
  private final ServerMetrics metrics;
  private final EmbeddedQos qos;

  private DataServer(
      String id,
      ShardStore store,
      ExecutorService workers,
      ScheduledExecutorService timer,
      RpcServer rpc,
      RpcClientPool metaPool,
      HeartbeatSender heartbeats,
      String address,
      ServerMetrics metrics,
      EmbeddedQos qos) {
    this.qos = qos;
    this.id = id;
    this.store = store;
    this.workers = workers;
    this.timer = timer;
    this.rpc = rpc;
    this.metaPool = metaPool;
    this.heartbeats = heartbeats;
    this.address = address;
    this.metrics = metrics;
  }

  /** Opens the store in {@code dir}, binds the port and starts reporting to the meta group. */
  public static DataServer start(String id, Path dir, Config config)
      throws IOException, InterruptedException {
    StartupTimer startup = StartupTimer.sinceJvmStart();
    AdvertisedAddress advertised = AdvertisedAddress.of(config);
    if (EmbeddedQos.configured(config)
        && !config.get(DataServerConfigKeys.Server.PROXY).isEmpty()) {
      throw new IllegalArgumentException(
          "tessera.qos.placement=embedded schedules in this server, and tessera.data.proxy names a"
              + " proxy in front of it: set one of the two");
    }
    ServerIdentity.claim(dir, id);
    TransportSecurity security = TransportSecurity.forServer(config, id, Identity.Role.DATA);
    startup.mark("TLS");
    AccessTokens tokens = new AccessTokens();
    LeaderClock leaderClock = new LeaderClock();
    ShardStore store =
        new RocksShardStore(
            dir.resolve("shards"),
            config.get(DataServerConfigKeys.Store.VALUE_FILES)
                ? RocksShardStore.MIN_FILE_VALUE
                : RocksShardStore.NO_VALUE_FILES,
            new ValueFileOptions(
                config.get(DataServerConfigKeys.Store.DIRECT_WRITES),
                config.get(DataServerConfigKeys.Store.DIRECT_READS),
                config.get(DataServerConfigKeys.Store.SPARE_VALUE_FILES)));
    startup.mark("shard store");
    int threads = config.get(DataServerConfigKeys.Server.WORKER_THREADS);
    AtomicInteger n = new AtomicInteger();
    ExecutorService workers =
        new ThreadPoolExecutor(
            threads,
            threads,
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "data-worker-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    StripeLockTable locks =
        new StripeLockTable(
            store,
            config.get(DataServerConfigKeys.Coordination.MAX_LOCK_LEASE),
            config.get(DataServerConfigKeys.Coordination.MAX_LOCK_HOLD),
            System::nanoTime);
    ScheduledExecutorService timer = DaemonTimer.named("data-timer");
    GarbageCollector gc = new GarbageCollector(store, timer);
    WriteGate gate =
        new WriteGate(
            store,
            System::nanoTime,
            config.get(DataServerConfigKeys.Coordination.SNAPSHOT_GATE_TIMEOUT).multipliedBy(3),
            gc::requestRun);
    SnapshotParticipant snapshots = new SnapshotParticipant(gate, locks, timer, System::nanoTime);
    ServingState serving = new ServingState(id);
    ClientLoad load = new ClientLoad();
    DataMetrics metrics = new DataMetrics(store, locks, dir.toFile(), config);
    CorruptionReport corruption = new CorruptionReport();
    int maxFrame = RpcConfigKeys.maxFrameBytes(config);
    String host = config.get(DataServerConfigKeys.Server.BIND_HOST);
    RpcClientPool metaPool =
        new RpcClientPool(
            "data-" + id + "-meta",
            1,
            maxFrame,
            5000,
            2000,
            RpcConfigKeys.silenceLimitMillis(config),
            security);
    DataRequestHandler handler =
        new DataRequestHandler(
            new AccessGate(tokens, leaderClock::now),
            DataOps.of(store, locks, gate, snapshots, serving, corruption),
            store,
            gate,
            corruption,
            new SpaceGuard(
                dir.toFile(),
                config.get(DataServerConfigKeys.Store.MIN_FREE_SPACE),
                "data server " + id,
                DataServerConfigKeys.Store.MIN_FREE_SPACE.key()),
            workers,
            load,
            metrics,
            deviceCap(config));
    // the server's own address is known once it listens; an embedded scheduler needs it first
    String[] self = {""};
    EmbeddedQos qos =
        EmbeddedQos.configured(config)
            ? EmbeddedQos.create(id, metaPool, () -> self[0], security.revocations(), config)
            : null;
    RpcServer rpc;
    try {
      rpc =
          RpcServer.start(
              "data-" + id,
              new InetSocketAddress(host, config.get(DataServerConfigKeys.Server.PORT)),
              qos == null ? Map.of(Service.DATA, handler) : qos.services(handler),
              RpcConfigKeys.serverLimits(config),
              security);
    } catch (RuntimeException e) {
      store.close();
      workers.shutdownNow();
      timer.shutdownNow();
      metaPool.close();
      if (qos != null) {
        qos.close();
      }
      throw new IOException(
          "data server "
              + id
              + " cannot listen on "
              + host
              + ":"
              + config.get(DataServerConfigKeys.Server.PORT)
              + ": "
              + e.getMessage(),
          e);
    }
    String address = advertised.address(rpc.port());
    self[0] = address;
    if (qos != null) {
      qos.start(metrics.metrics);
    }
    LeaderFollowingCaller meta =
        new LeaderFollowingCaller(
            metaPool,
            Arrays.asList(config.get(DataServerConfigKeys.Server.META_ADDRESSES).split(",")),
            Service.HEARTBEAT,
            Heartbeats.FIND_LEADER_WINDOW);
    HeartbeatSender hb =
        new HeartbeatSender(
            id,
            address,
            qos != null ? address : config.get(DataServerConfigKeys.Server.PROXY),
            dir.toFile(),
            store,
            meta,
            gate,
            serving,
            locks,
            corruption,
            load,
            config.get(DataServerConfigKeys.Store.MIN_FREE_SPACE),
            config.get(DataServerConfigKeys.Coordination.SNAPSHOT_GATE_TIMEOUT),
            new SecurityFollower(tokens, security.revocations()),
            leaderClock);
    hb.start(config.get(DataServerConfigKeys.Server.HEARTBEAT_INTERVAL));
    new Scrubber(store, corruption, config.get(DataServerConfigKeys.Scrubbing.SCRUB_RATE))
        .start(timer);
    startup.mark("port and services");
    LOG.info("Data server {} serving {} from {}; ready {}", id, address, dir, startup.account());
    return new DataServer(
        id, store, workers, timer, rpc, metaPool, hb, address, metrics.metrics, qos);
  }

  private static DeviceCap deviceCap(Config config) {
    long cap = config.get(DataServerConfigKeys.Testing.DEVICE_CAP);
    if (cap <= 0) {
      return DeviceCap.NONE;
    }
    LOG.warn(
        "{} caps this server at {} bytes/s: for measuring only",
        DataServerConfigKeys.Testing.DEVICE_CAP.key(),
        cap);
    return new DeviceCap(cap, System::nanoTime);
  }

  public String id() {
    return id;
  }

  public String address() {
    return address;
  }

  /**
   * Shard writes this server acknowledged without an fsync since its last one (lost if the machine
   * loses power now).
   */
  public long unsyncedWrites() {
    return store.unsyncedWrites();
  }

  /** What this server shows at /metrics. */
  public ServerMetrics metrics() {
    return metrics;
  }

  public boolean isRegistered() {
    return heartbeats.isRegistered();
  }

  @Override
  public void close() throws IOException {
    heartbeats.close();
    rpc.close();
    timer.shutdownNow();
    if (qos != null) {
      qos.close();
    }
    workers.shutdown();
    try {
      workers.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    metaPool.close();
    store.close();
    LOG.info("Data server {} stopped", id);
  }
}
