package io.tessera.common.cluster;

import java.util.concurrent.TimeUnit;

/**
 * A time limit learnt from what actually happened, as TCP's retransmission timeout and Ceph's laggy
 * grace are: at least the configured limit, or twice the longest wait that still ended well (a
 * silent peer that spoke again, a write that held its locks that long and finished), never more
 * than a ceiling. What was learnt fades by half every minute, so once things are quick again the
 * configured limit rules again. On a loaded cluster, slow is waited for; gone is still found.
 */
public final class LearnedLimit {
  private static final long HALF_LIFE_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final long limitNanos;
  private final long ceilingNanos;
  private long longestNanos;
  private long fadedAt;

  public LearnedLimit(long limitNanos, long ceilingNanos) {
    this.limitNanos = limitNanos;
    this.ceilingNanos = Math.max(limitNanos, ceilingNanos);
    this.fadedAt = System.nanoTime();
  }

  /** A wait of {@code nanos} ended well at {@code now}. */
  public synchronized void ended(long nanos, long now) {
    long halvings = (now - fadedAt) / HALF_LIFE_NANOS;
    if (halvings > 0) {
      longestNanos >>= Math.min(halvings, 62);
      fadedAt += halvings * HALF_LIFE_NANOS;
    }
    longestNanos = Math.max(longestNanos, nanos);
  }

  /** The limit now. */
  public synchronized long nanos() {
    return Math.max(limitNanos, Math.min(ceilingNanos, 2 * longestNanos));
  }
}
