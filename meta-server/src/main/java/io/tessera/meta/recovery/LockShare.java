package io.tessera.meta.recovery;

import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Keeps the time rebuilds hold stripe locks writers wait on to a share of the clock while clients
 * are busy. Writers of locked stripes wait, so before taking its next such lock the rebuilder waits
 * until the locks it held fill no more than the share. A lock no writer waited on cost nobody time
 * and calls for no pause; which those are the data servers say (no writer asked while it was held,
 * none in the second before it was granted). The byte rate alone does not bound this: a small file
 * copied under its file-wide lock may hold it far longer than its bytes are due at the rate (a
 * target just restarted and cold, survivors busy with the writers). The wait comes before the next
 * lock, not after the last: a finished rebuild is counted and reported at once. A lock no writer is
 * expected to wait for (the next chunk of a file no writer waited on so far, that file's check)
 * need not wait: it is taken at once and what is owed stays owed, the time passing meanwhile paying
 * it off unless writers waited on that lock after all, which then owes its own pause on top.
 */
final class LockShare {
  /** The share now, in percent (100: no pause; it changes with the clients' load). */
  private final IntSupplier percent;

  private final LongSupplier clock;
  private final Sleeper sleeper;

  /** The pause the locks released so far call for, counted from {@link #releasedAt}. */
  private long owedNanos;

  private long releasedAt;

  LockShare(IntSupplier percent) {
    this(percent, System::nanoTime, Sleeper.REAL);
  }

  LockShare(IntSupplier percent, LongSupplier clock, Sleeper sleeper) {
    this.percent = percent;
    this.clock = clock;
    this.sleeper = sleeper;
  }

  /**
   * Waits, before a lock writers may wait for is taken, for what is left of the pause the locks
   * released so far call for; returns when the lock is being taken (for {@link #released}).
   */
  long beforeLocking() throws InterruptedException {
    long wait;
    synchronized (this) {
      wait = owedNanos - (clock.getAsLong() - releasedAt); // time since the release counts
    }
    if (wait > 0) {
      sleeper.sleep(wait);
    }
    synchronized (this) {
      owedNanos = 0;
      releasedAt = clock.getAsLong();
      return releasedAt;
    }
  }

  /**
   * Before a lock no writer is expected to wait for: taken at once, the pause still owed is left
   * for the next {@link #beforeLocking}; returns when the lock is being taken.
   */
  long beforeUnwaitedLock() {
    return clock.getAsLong();
  }

  /**
   * The lock taken at {@code lockedSince} was released: if {@code writersWaited} on it, the next
   * {@link #beforeLocking} also waits for the share's complement of the time it was held.
   */
  synchronized void released(long lockedSince, boolean writersWaited) {
    int p = percent.getAsInt();
    if (p >= 100) {
      owedNanos = 0;
      return;
    }
    if (!writersWaited) {
      return; // the time it was held paid off what is owed, as idle time does
    }
    long now = clock.getAsLong();
    long held = Math.max(0, now - lockedSince);
    long paid =
        Math.max(0, lockedSince - releasedAt); // before this lock, not while writers waited on it
    owedNanos = Math.max(0, owedNanos - paid) + held * (100 - p) / p;
    releasedAt = now;
  }
}
