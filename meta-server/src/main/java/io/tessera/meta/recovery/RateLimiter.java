package io.tessera.meta.recovery;

import java.util.function.LongSupplier;

/**
 * Keeps rebuild traffic at or below a rate, so foreground I/O keeps most of the machine: {@link
 * #acquire} sleeps until the bytes so far are due at the rate. After an idle stretch at most one
 * second's worth goes out at once. A rate of 0 means no limit.
 */
final class RateLimiter {
  private static final long BURST_NANOS = 1_000_000_000L;

  /** The rate now (it may change from call to call: recovery slows down while clients are busy). */
  private final LongSupplier bytesPerSecond;

  private final LongSupplier clock;
  private final Sleeper sleeper;

  /** When the bytes acquired so far are all due at the rate. */
  private long dueNanos;

  RateLimiter(LongSupplier bytesPerSecond) {
    this(bytesPerSecond, System::nanoTime, Sleeper.REAL);
  }

  RateLimiter(LongSupplier bytesPerSecond, LongSupplier clock, Sleeper sleeper) {
    this.bytesPerSecond = bytesPerSecond;
    this.clock = clock;
    this.sleeper = sleeper;
    this.dueNanos = clock.getAsLong() - BURST_NANOS;
  }

  /** Counts {@code bytes} and waits until they are due at the rate. */
  synchronized void acquire(long bytes) throws InterruptedException {
    long wait = charge(bytes);
    if (wait > 0) {
      sleeper.sleep(wait);
    }
  }

  /**
   * Counts {@code bytes} sent while writers wait on a lock the sender holds, waiting only for what
   * lies more than a second ahead of the rate: a small file's lock is held no longer than its copy
   * takes, a large one's copy still keeps to the rate, and the next {@link #acquire} (after the
   * lock is released) waits for the rest.
   */
  synchronized void acquireHoldingLock(long bytes) throws InterruptedException {
    long wait = charge(bytes) - BURST_NANOS;
    if (wait > 0) {
      sleeper.sleep(wait);
    }
  }

  /** Counts {@code bytes}; returns nanoseconds until the bytes so far are due. */
  private long charge(long bytes) {
    long rate = bytesPerSecond.getAsLong();
    if (rate <= 0) {
      return 0;
    }
    long now = clock.getAsLong();
    // idle time earns no more than a second's worth of bytes at once
    dueNanos = Math.max(dueNanos, now - BURST_NANOS) + (long) (bytes * 1e9 / rate);
    return dueNanos - now;
  }

  long bytesPerSecond() {
    return bytesPerSecond.getAsLong();
  }
}
