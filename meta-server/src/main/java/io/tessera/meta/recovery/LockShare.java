package io.tessera.meta.recovery;

import java.util.function.IntSupplier;

/**
 * Keeps the time rebuilds hold stripe locks to a share of the clock while clients are busy.
 * Writers of locked stripes wait, so after each lock it releases the rebuilder pauses long enough
 * for its locks to fill no more than the share. The byte rate alone does not bound this: a small
 * file copied under its file-wide lock may hold it far longer than its bytes are due at the rate
 * (a target just restarted and cold, survivors busy with the writers).
 */
final class LockShare {
  /** The share now, in percent (100: no pause; it changes with the clients' load). */
  private final IntSupplier percent;
  private final Sleeper sleeper;

  LockShare(IntSupplier percent) {
    this(percent, Sleeper.REAL);
  }

  LockShare(IntSupplier percent, Sleeper sleeper) {
    this.percent = percent;
    this.sleeper = sleeper;
  }

  /** Called after a lock held for {@code heldNanos} is released: pauses for the share's complement. */
  void released(long heldNanos) throws InterruptedException {
    long pause = pauseAfter(heldNanos);
    if (pause > 0) {
      sleeper.sleep(pause);
    }
  }

  /** The pause after a lock held {@code heldNanos}: held / (held + pause) = the share. */
  long pauseAfter(long heldNanos) {
    int p = percent.getAsInt();
    if (p >= 100 || heldNanos <= 0) {
      return 0;
    }
    return heldNanos * (100 - p) / p;
  }
}
