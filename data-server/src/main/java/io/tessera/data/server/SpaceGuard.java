package io.tessera.data.server;

import java.io.File;

/**
 * Refuses new data while the disk's free space is below a floor, so a full disk gives writers a
 * clear NO_SPACE before anything of their write is stored (and RocksDB never fails half-way through
 * a batch). Free space is looked up at most every 200 ms.
 */
final class SpaceGuard {
  private static final long RECHECK_NANOS = 200_000_000L;

  private final File dir;
  private final long minFreeBytes;
  private final String serverId;
  private volatile long freeBytes = Long.MAX_VALUE;
  private volatile long checkedAtNanos = System.nanoTime() - RECHECK_NANOS;

  SpaceGuard(File dir, long minFreeBytes, String serverId) {
    this.dir = dir;
    this.minFreeBytes = minFreeBytes;
    this.serverId = serverId;
  }

  /** Why a write of {@code bytes} must be refused, or null when there is room. */
  String refusal(long bytes) {
    long now = System.nanoTime();
    if (now - checkedAtNanos >= RECHECK_NANOS) {
      freeBytes = dir.getUsableSpace();
      checkedAtNanos = now;
    }
    if (freeBytes - bytes >= minFreeBytes) {
      return null;
    }
    return "data server "
        + serverId
        + " is out of space: "
        + (freeBytes >> 20)
        + " MiB free, "
        + (minFreeBytes >> 20)
        + " MiB must stay free (tessera.data.min-free-space); free space on it or add servers";
  }
}
