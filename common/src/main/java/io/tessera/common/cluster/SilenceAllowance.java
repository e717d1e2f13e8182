package io.tessera.common.cluster;

import java.util.concurrent.TimeUnit;

/**
 * How long a peer may stay silent before it is given up, learnt from the peer itself, as TCP's
 * retransmission timeout and Ceph's laggy grace are: at least the configured limit, or twice the
 * longest silence the peer ended by speaking again (a loaded machine, a long pause), never more
 * than a ceiling. The allowance fades by half every minute, so a peer that is quick again is judged
 * by the limit again. A busy peer is waited for; a gone one is not.
 */
public final class SilenceAllowance {
  private static final long HALF_LIFE_NANOS = TimeUnit.MINUTES.toNanos(1);

  private final long limitNanos;
  private final long ceilingNanos;
  private long longestGapNanos;
  private long fadedAt;

  public SilenceAllowance(long limitNanos, long ceilingNanos) {
    this.limitNanos = limitNanos;
    this.ceilingNanos = Math.max(limitNanos, ceilingNanos);
    this.fadedAt = System.nanoTime();
  }

  /** The peer spoke again at {@code now} after {@code gapNanos} of silence. */
  public synchronized void ended(long gapNanos, long now) {
    long halvings = (now - fadedAt) / HALF_LIFE_NANOS;
    if (halvings > 0) {
      longestGapNanos >>= Math.min(halvings, 62);
      fadedAt += halvings * HALF_LIFE_NANOS;
    }
    longestGapNanos = Math.max(longestGapNanos, gapNanos);
  }

  /** The silence after which the peer is given up now. */
  public synchronized long nanos() {
    return Math.max(limitNanos, Math.min(ceilingNanos, 2 * longestGapNanos));
  }
}
