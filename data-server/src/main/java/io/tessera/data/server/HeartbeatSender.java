package io.tessera.data.server;

import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.platform.FilesystemId;
import io.tessera.common.platform.StartupTimer;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.HeartbeatResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.LeaderFollowingCaller;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.recovery.CorruptionReport;
import io.tessera.data.recovery.ServingState;
import io.tessera.data.snapshot.WriteGate;
import io.tessera.data.store.EpochState;
import io.tessera.data.store.ShardStore;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reports this server (address, capacity, free space) to the meta leader at a fixed rate and adopts
 * the global epoch and retained snapshots it answers with (the write gate opens on the first
 * answer). The first heartbeat registers the server.
 */
final class HeartbeatSender implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(HeartbeatSender.class);

  private final String serverId;
  private final String address;
  private final String proxyAddress;
  private final File dataDir;
  private final String filesystem;
  private final ShardStore store;
  private final LeaderFollowingCaller meta;
  private final WriteGate gate;
  private final ServingState serving;
  private final StripeLockTable locks;
  private final CorruptionReport corruption;

  /** Free space this server never fills (tessera.data.min-free-space): not reported as free. */
  private final long reserveBytes;

  private final long gateBoundNanos;
  private final ScheduledExecutorService timer = DaemonTimer.named("heartbeat");
  private final ClientLoad load;
  private final SecurityFollower security;
  private final LeaderClock leaderClock;
  private volatile boolean registered;
  private volatile boolean inFlight;

  HeartbeatSender(
      String serverId,
      String address,
      String proxyAddress,
      File dataDir,
      ShardStore store,
      LeaderFollowingCaller meta,
      WriteGate gate,
      ServingState serving,
      StripeLockTable locks,
      CorruptionReport corruption,
      ClientLoad load,
      long reserveBytes,
      Duration gateBound,
      SecurityFollower security,
      LeaderClock leaderClock) {
    this.security = security;
    this.leaderClock = leaderClock;
    this.load = load;
    this.reserveBytes = reserveBytes;
    this.corruption = corruption;
    this.serving = serving;
    this.locks = locks;
    this.serverId = serverId;
    this.address = address;
    this.proxyAddress = proxyAddress;
    this.dataDir = dataDir;
    this.filesystem = FilesystemId.of(dataDir.toPath());
    this.store = store;
    this.meta = meta;
    this.gate = gate;
    this.gateBoundNanos = gateBound.toNanos();
  }

  void start(Duration interval) {
    timer.scheduleWithFixedDelay(this::beat, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  private void beat() {
    if (inFlight) {
      return;
    }
    inFlight = true;
    long overdue = gate.overdueAttempt(gateBoundNanos);
    if (overdue != 0) {
      LOG.warn(
          "Write gate closed for snapshot attempt {} longer than {} ms; asking the meta group to settle it",
          overdue,
          gateBoundNanos / 1_000_000);
    }
    ClientLoad.Rates rates = load.perSecondSinceLast();
    HeartbeatRequestProto.Builder hb =
        HeartbeatRequestProto.newBuilder()
            .setServerId(serverId)
            .setAddress(address)
            .setProxyAddress(proxyAddress)
            .setCapacityBytes(dataDir.getTotalSpace())
            .setFilesystem(filesystem)
            .setFreeBytes(Math.max(0, dataDir.getUsableSpace() - reserveBytes))
            .setUsedBytes(store.usedBytes())
            .setEpoch(store.epoch())
            .setGateAttempt(overdue)
            .addAllOrphanLocks(locks.orphans(64))
            .addAllCorruptFiles(corruption.pending(64))
            .setClientBytesPerS(rates.bytesPerSecond())
            .setClientRequestsPerS(rates.requestsPerSecond())
            .setServingState(serving.state());
    security.stamp(hb);
    HeartbeatRequestProto req = hb.build();
    long sentMs = System.currentTimeMillis();
    meta.call(
            req.toByteArray(),
            HeartbeatResponseProto::parseFrom,
            r ->
                new LeaderFollowingCaller.Outcome(r.getStatus(), r.getLeaderHint(), r.getMessage()))
        .whenComplete(
            (r, err) -> {
              inFlight = false;
              if (err != null || r.getStatus() != StatusProto.OK) {
                if (registered) {
                  LOG.warn(
                      "Lost contact with the meta leader: {}",
                      err != null ? err.getMessage() : r.getMessage());
                  registered = false;
                }
                return;
              }
              security.learn(r);
              leaderClock.learn(r.getLeaderTimeMs(), sentMs, System.currentTimeMillis());
              serving.learn(r.getState());
              try {
                locks.learnCoordinator(r.getCoordinator());
              } catch (IOException e) {
                LOG.warn("Could not drop a dead recovery coordinator's locks: {}", e.getMessage());
              }
              corruption.reported(req.getCorruptFilesList());
              gate.learn(
                  new EpochState(
                      r.getEpoch(),
                      r.getRetainedEpochsList().stream().mapToLong(Long::longValue).toArray()),
                  overdue);
              if (!registered) {
                registered = true;
                LOG.info(
                    "Data server {} registered with meta leader {} (epoch {}), {} after its JVM"
                        + " started",
                    serverId,
                    meta.currentLeader(),
                    r.getEpoch(),
                    StartupTimer.sinceJvmStarted());
              }
            });
  }

  boolean isRegistered() {
    return registered;
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
