package io.tessera.nfs.v3;

import io.tessera.client.FileStatus;

/**
 * A file or directory reached through a handle: the handle and the attributes the namespace gave
 * for it during this call.
 */
public record Node(FileHandle handle, FileStatus status) {
  public String path() {
    return status.path();
  }

  public boolean directory() {
    return status.directory();
  }

  /** Under /.snapshots: nothing there may change. */
  public boolean readOnly() {
    return handle.inSnapshot();
  }

  /** The fsid clients see: the export's, and each snapshot its own (file ids repeat there). */
  public long fsid() {
    return Integer.toUnsignedLong(handle.export())
        + (handle.inSnapshot() ? handle.epoch() << 32 : 0);
  }
}
