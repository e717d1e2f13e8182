package io.tessera.data.server;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * A device of a given bandwidth, for measuring ({@code tessera.data.test-device-cap}): each
 * request's bytes occupy it for bytes / rate, one request after another, and a request is served
 * once its turn on the device is over. Requests queue here as they would at a slow disk.
 */
final class DeviceCap {
  /** No cap: every request is served at once. */
  static final DeviceCap NONE = new DeviceCap(0, System::nanoTime);

  private final double nanosPerByte;
  private final LongSupplier clock;
  private long freeAt;

  DeviceCap(long bytesPerSecond, LongSupplier clock) {
    this.nanosPerByte = bytesPerSecond > 0 ? 1e9 / bytesPerSecond : 0;
    this.clock = clock;
  }

  /** Books {@code bytes} on the device; returns the nanoseconds until the booking is served. */
  synchronized long book(long bytes) {
    if (nanosPerByte == 0 || bytes <= 0) {
      return 0;
    }
    long now = clock.getAsLong();
    freeAt = Math.max(now, freeAt) + (long) (bytes * nanosPerByte);
    return freeAt - now;
  }

  /** Waits for {@code bytes}' turn on the device. */
  void occupy(long bytes) {
    long wait = book(bytes);
    if (wait > 0) {
      try {
        TimeUnit.NANOSECONDS.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
