package io.tessera.data.server;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Bytes and requests clients send this server (recovery's own traffic not counted), reported per
 * second in each heartbeat: the recovery coordinator gives way to foreground I/O, and cluster
 * status shows each server's load.
 */
final class ClientLoad {
  private final AtomicLong bytes = new AtomicLong();
  private final AtomicLong requests = new AtomicLong();
  private long sinceNanos = System.nanoTime();

  /** Rates over the interval between two heartbeats. */
  record Rates(long bytesPerSecond, long requestsPerSecond) {}

  /** One client request that reads or writes {@code n} bytes. */
  void record(long n) {
    bytes.addAndGet(n);
    requests.incrementAndGet();
  }

  /** Rates since the previous call (the previous heartbeat). */
  synchronized Rates perSecondSinceLast() {
    long now = System.nanoTime();
    long elapsed = Math.max(1, now - sinceNanos);
    sinceNanos = now;
    return new Rates(
        (long) (bytes.getAndSet(0) * 1e9 / elapsed),
        (long) (requests.getAndSet(0) * 1e9 / elapsed));
  }
}
