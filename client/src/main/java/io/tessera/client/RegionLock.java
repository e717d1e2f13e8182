package io.tessera.client;

import io.tessera.client.region.RegionLocks;
import io.tessera.common.region.Region;
import java.io.IOException;

/**
 * A lock on bytes of a file, shared or exclusive, held by this client against other clients that
 * lock (advisory, as fcntl locks). Released by {@link #close()}; closing the file releases it too.
 * It stays valid while this client can renew its lease with the lock home (the meta leader); {@link
 * #isValid()} turns false if it could not for a whole lease.
 */
public final class RegionLock implements AutoCloseable {
  private final TesseraFile file;
  private final RegionLocks.Active held;

  RegionLock(TesseraFile file, RegionLocks.Active held) {
    this.file = file;
    this.held = held;
  }

  public TesseraFile file() {
    return file;
  }

  public long offset() {
    return held.region().start();
  }

  /** Bytes locked; 0 for a lock to the end of any file. */
  public long length() {
    return held.region().length();
  }

  public boolean isShared() {
    return !held.region().exclusive();
  }

  /** Whether this lock still protects its region (not released, not lost with the lease). */
  public boolean isValid() {
    return held.valid();
  }

  /** Releases the lock; this client keeps the region cached until another client asks for it. */
  public void release() throws IOException {
    file.forget(this);
    held.release();
  }

  @Override
  public void close() throws IOException {
    release();
  }

  Region region() {
    return held.region();
  }

  @Override
  public String toString() {
    return held.region() + " of " + file.path();
  }
}
