package io.tessera.meta.recovery;

import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Keeps the time rebuilds hold stripe locks writers wait on to a share of the clock while clients
 * are busy. Writers of locked stripes wait, so before taking its next lock the rebuilder waits
 * until the locks it held fill no more than the share. A lock no writer waited on cost nobody
 * time and calls for no pause; which those are the rebuilder decides (a large file's chunk lock
 * the data servers say no writer asked for while it was held; never a file-wide lock). The byte
 * rate alone does not bound this: a small
 * file copied under its file-wide lock may hold it far longer than its bytes are due at the rate
 * (a target just restarted and cold, survivors busy with the writers). The wait comes before the
 * next lock, not after the last: a finished rebuild is counted and reported at once.
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
   * Waits, before a lock is taken, for what is left of the pause the last lock called for;
   * returns when the lock is being taken (for {@link #released}).
   */
  long beforeLocking() throws InterruptedException {
    long wait;
    synchronized (this) {
      wait = owedNanos - (clock.getAsLong() - releasedAt);   // time since the release counts
      owedNanos = 0;
    }
    if (wait > 0) {
      sleeper.sleep(wait);
    }
    return clock.getAsLong();
  }

  /**
   * The lock taken at {@code lockedSince} was released: if {@code writersWaited} on it, the next
   * one waits for the share's complement.
   */
  synchronized void released(long lockedSince, boolean writersWaited) {
    long now = clock.getAsLong();
    long held = now - lockedSince;
    int p = percent.getAsInt();
    owedNanos = !writersWaited || p >= 100 || held <= 0 ? 0 : held * (100 - p) / p;
    releasedAt = now;
  }
}
