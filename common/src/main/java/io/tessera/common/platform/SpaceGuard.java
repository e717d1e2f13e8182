package io.tessera.common.platform;

import java.io.File;

/**
 * Refuses new data while a disk's free space is below a floor, so a full disk gives writers a clear
 * NO_SPACE before anything of their write is stored (and RocksDB or the Raft log never fail
 * half-way through a batch). Free space is looked up at most every 200 ms; what was admitted and is
 * still being written counts as used meanwhile, so many writes admitted at once cannot together run
 * past the floor.
 */
public final class SpaceGuard {
  private static final long RECHECK_NANOS = 200_000_000L;

  private final File dir;
  private final long minFreeBytes;
  private final String who;
  private final String settingKey;
  private long freeBytes = Long.MAX_VALUE;
  private long checkedAtNanos = System.nanoTime() - RECHECK_NANOS;
  private long inFlightBytes;

  /** Bytes of admitted writes that ended since the last look-up (it may not show them yet). */
  private long endedSinceCheck;

  /**
   * @param who what is out of space, for the refusal ("data server ds-1")
   * @param settingKey the setting that holds {@code minFreeBytes}, named in the refusal
   */
  public SpaceGuard(File dir, long minFreeBytes, String who, String settingKey) {
    this.dir = dir;
    this.minFreeBytes = minFreeBytes;
    this.who = who;
    this.settingKey = settingKey;
  }

  /**
   * Admits a write of {@code bytes}: null when there is room (the caller then {@link #release}s the
   * bytes once the write is stored or failed), else why it is refused.
   */
  public synchronized String reserve(long bytes) {
    long now = System.nanoTime();
    if (now - checkedAtNanos >= RECHECK_NANOS) {
      freeBytes = dir.getUsableSpace();
      checkedAtNanos = now;
      endedSinceCheck = 0;
    }
    long used = inFlightBytes + endedSinceCheck;
    if (freeBytes - used - bytes >= minFreeBytes) {
      inFlightBytes += bytes;
      return null;
    }
    return who
        + " is out of space: "
        + (Math.max(0, freeBytes - used) >> 20)
        + " MiB free, "
        + (minFreeBytes >> 20)
        + " MiB must stay free ("
        + settingKey
        + "); free space on it or add servers";
  }

  /** Free bytes on the disk now (looked up afresh). */
  public long freeBytes() {
    return dir.getUsableSpace();
  }

  /** A write admitted by {@link #reserve} is over. */
  public synchronized void release(long bytes) {
    inFlightBytes = Math.max(0, inFlightBytes - bytes);
    endedSinceCheck += bytes;
  }
}
