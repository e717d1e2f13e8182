package io.tessera.client.internal;

import io.tessera.common.fault.FaultPoints;
import io.tessera.common.proto.RenewLockRequestProto;
import io.tessera.common.proto.StripeLockProto;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Keeps one write's stripe lock held while the write waits on the cluster: every third of the
 * lease, the servers asked for the lock are told the writer is alive. On a loaded cluster a write's
 * phases wait in queues longer than any lease chosen in advance; a writer that died or was cut off
 * renews nothing, and its lock runs out after one lease as before. Renewals go to the servers
 * themselves, past any QoS proxy (whose queue may be what holds the write up); one per server is in
 * flight at a time.
 */
final class LockRenewal {
  /** Fault point before each round of renewals ({@link ParityWriter#LOCK_RENEWAL}). */
  static final String RENEWING = "client.parity-write.lock-renewal";

  private static final long MOST_BETWEEN_RENEWALS_MS = 10_000;

  /** A renewal that renews nothing (no lock held yet). */
  static final LockRenewal NONE = new LockRenewal(null, null, null, List.of(), Duration.ZERO, null);

  private final DataClient data;
  private final FileTarget file;
  private final StripeLockProto lock;
  private final List<String> servers;
  private final long periodMillis;
  private final Object faultScope;
  private final Map<String, Boolean> inFlight = new ConcurrentHashMap<>();
  private volatile boolean stopped;

  private LockRenewal(
      DataClient data,
      FileTarget file,
      StripeLockProto lock,
      List<String> servers,
      Duration lease,
      Object faultScope) {
    this.data = data;
    this.file = file;
    this.lock = lock;
    this.servers = servers;
    // servers may cap a lease below what was asked (tessera.data.max-lock-lease)
    this.periodMillis = Math.max(1, Math.min(lease.toMillis() / 3, MOST_BETWEEN_RENEWALS_MS));
    this.faultScope = faultScope;
  }

  /** Starts renewing {@code lock} at {@code servers} until {@link #stop}. */
  static LockRenewal start(
      DataClient data,
      FileTarget file,
      StripeLockProto lock,
      List<String> servers,
      Object faultScope) {
    LockRenewal r =
        new LockRenewal(
            data,
            file,
            lock,
            List.copyOf(servers),
            Duration.ofMillis(lock.getLeaseMs()),
            faultScope);
    r.schedule();
    return r;
  }

  /** The write released its lock, or failed: no more renewals. */
  void stop() {
    stopped = true;
  }

  private void schedule() {
    if (stopped) {
      return;
    }
    CompletableFuture.runAsync(
        this::round, CompletableFuture.delayedExecutor(periodMillis, TimeUnit.MILLISECONDS));
  }

  private void round() {
    if (stopped) {
      return;
    }
    try {
      FaultPoints.reach(RENEWING, faultScope);
      for (String server : servers) {
        if (inFlight.putIfAbsent(server, Boolean.TRUE) == null) {
          data.callPastProxy(
                  server,
                  file.request(file.layout())
                      .setRenewLock(RenewLockRequestProto.newBuilder().setLock(lock)))
              .whenComplete((outcome, e) -> inFlight.remove(server));
        }
      }
    } catch (RuntimeException skipped) {
      // this round only (a fault point's simulated pause)
    } finally {
      schedule();
    }
  }
}
