package io.tessera.meta.recovery;

/**
 * Keeps rebuild traffic at or below a rate, so foreground I/O keeps most of the machine:
 * {@link #acquire} sleeps when the bytes so far run ahead of the rate. 0 means no limit.
 */
final class RateLimiter {
  private final long bytesPerSecond;
  private long windowStartNanos = System.nanoTime();
  private long bytesInWindow;

  RateLimiter(long bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
  }

  synchronized void acquire(long bytes) throws InterruptedException {
    if (bytesPerSecond <= 0) {
      return;
    }
    long now = System.nanoTime();
    if (now - windowStartNanos > 5_000_000_000L) {
      // an idle stretch earns no burst beyond a second's worth
      windowStartNanos = now - 1_000_000_000L;
      bytesInWindow = 0;
    }
    bytesInWindow += bytes;
    long dueNanos = windowStartNanos + bytesInWindow * 1_000_000_000L / bytesPerSecond;
    long wait = dueNanos - now;
    if (wait > 0) {
      Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
    }
  }

  long bytesPerSecond() {
    return bytesPerSecond;
  }
}
