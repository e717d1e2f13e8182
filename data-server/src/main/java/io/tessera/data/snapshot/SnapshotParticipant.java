package io.tessera.data.snapshot;

import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.store.EpochState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * This server's part in taking a snapshot: PREPARE closes the write gate and waits until no change
 * that takes the epoch current when it lands is running (unlocked writes, recovery's locked writes)
 * and recovery holds no unexpired lock (READY), or answers BUSY after the drain bound and reopens.
 *
 * <p>Writers' locks held at PREPARE do not hold it back: their phase 2 is stamped with the epoch
 * their locks were granted at on every server, so the snapshot holds such a write whole (granted
 * before PREPARE everywhere) or not at all (granted after the COMMIT somewhere), and readers of the
 * snapshot wait for it to land ({@link StripeLockTable#whenLanded}). The cost of a snapshot is then
 * the gate's round trips, not the longest write in flight.
 */
public final class SnapshotParticipant {
  private static final long POLL_MICROS = 500;

  private final WriteGate gate;
  private final StripeLockTable locks;
  private final ScheduledExecutorService timer;
  private final LongSupplier nanoClock;

  public SnapshotParticipant(
      WriteGate gate,
      StripeLockTable locks,
      ScheduledExecutorService timer,
      LongSupplier nanoClock) {
    this.gate = gate;
    this.locks = locks;
    this.timer = timer;
    this.nanoClock = nanoClock;
  }

  /** Completes with null when ready, or with the reason this server is busy. */
  public CompletableFuture<String> prepare(
      long attempt, EpochState atPrepare, Duration drainBound) {
    String refused = gate.close(attempt, atPrepare);
    if (refused != null) {
      return CompletableFuture.completedFuture(refused);
    }
    CompletableFuture<String> ready = new CompletableFuture<>();
    long deadline = nanoClock.getAsLong() + drainBound.toNanos();
    ScheduledFuture<?>[] poll = new ScheduledFuture<?>[1];
    Runnable check =
        () -> {
          if (ready.isDone()) {
            return;
          }
          if (gate.drained() && locks.unexpiredRecoveryLocks() == 0) {
            ready.complete(null);
          } else if (nanoClock.getAsLong() - deadline > 0) {
            String why =
                "writes did not drain within "
                    + drainBound.toMillis()
                    + " ms ("
                    + locks.unexpiredRecoveryLocks()
                    + " recovery lock(s) held, oldest: "
                    + locks.oldestRecoveryHolder()
                    + ")";
            gate.abort(attempt);
            ready.complete(why);
          }
        };
    check.run();
    if (!ready.isDone()) {
      poll[0] =
          timer.scheduleWithFixedDelay(check, POLL_MICROS, POLL_MICROS, TimeUnit.MICROSECONDS);
      ready.whenComplete((r, e) -> poll[0].cancel(false));
    }
    return ready;
  }
}
