package io.tessera.data.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes clients read and write on this server (recovery's own traffic not counted), reported per
 * second in each heartbeat so the recovery coordinator can give way to foreground I/O.
 */
final class ClientLoad {
  private final AtomicLong bytes = new AtomicLong();
  private long sinceNanos = System.nanoTime();

  void record(long n) {
    bytes.addAndGet(n);
  }

  /** Bytes per second since the previous call (the previous heartbeat). */
  synchronized long perSecondSinceLast() {
    long now = System.nanoTime();
    long n = bytes.getAndSet(0);
    long elapsed = Math.max(1, now - sinceNanos);
    sinceNanos = now;
    return (long) (n * 1e9 / elapsed);
  }
}
