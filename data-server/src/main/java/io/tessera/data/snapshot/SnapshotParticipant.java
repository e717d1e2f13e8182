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
 * This server's part in taking a snapshot: PREPARE closes the write gate and waits until no
 * unexpired stripe lock is held and no unlocked write is running (READY), or answers BUSY
 * after the drain bound and reopens. Locks whose lease ran out belong to crashed writers and
 * do not hold a snapshot back.
 */
public final class SnapshotParticipant {
  private static final long POLL_MICROS = 500;

  private final WriteGate gate;
  private final StripeLockTable locks;
  private final ScheduledExecutorService timer;
  private final LongSupplier nanoClock;

  public SnapshotParticipant(WriteGate gate, StripeLockTable locks, ScheduledExecutorService timer,
      LongSupplier nanoClock) {
    this.gate = gate;
    this.locks = locks;
    this.timer = timer;
    this.nanoClock = nanoClock;
  }

  /** Completes with null when ready, or with the reason this server is busy. */
  public CompletableFuture<String> prepare(long attempt, EpochState atPrepare, Duration drainBound) {
    String refused = gate.close(attempt, atPrepare);
    if (refused != null) {
      return CompletableFuture.completedFuture(refused);
    }
    CompletableFuture<String> ready = new CompletableFuture<>();
    long deadline = nanoClock.getAsLong() + drainBound.toNanos();
    ScheduledFuture<?>[] poll = new ScheduledFuture<?>[1];
    Runnable check = () -> {
      if (ready.isDone()) {
        return;
      }
      if (gate.drained() && locks.unexpiredCount() == 0) {
        ready.complete(null);
      } else if (nanoClock.getAsLong() - deadline > 0) {
        String why = "writes did not drain within " + drainBound.toMillis() + " ms (" + locks.unexpiredCount()
            + " stripe lock(s) held, oldest: " + locks.oldestHolder() + ")";
        gate.abort(attempt);
        ready.complete(why);
      }
    };
    check.run();
    if (!ready.isDone()) {
      poll[0] = timer.scheduleWithFixedDelay(check, POLL_MICROS, POLL_MICROS, TimeUnit.MICROSECONDS);
      ready.whenComplete((r, e) -> poll[0].cancel(false));
    }
    return ready;
  }
}
