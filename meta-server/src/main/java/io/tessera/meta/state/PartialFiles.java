package io.tessera.meta.state;

import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.StatusProto;

/**
 * Puts' partial copies: a file created with a lease its writer renews while it copies, renamed into
 * place when complete. A writer killed mid-copy stops renewing, and once the lease has run out the
 * leader removes the copy (as HDFS recovers the leases of dead writers): a SIGKILLed put no longer
 * leaves its hidden file behind for good.
 */
public final class PartialFiles {
  /** Bounds of a lease a writer may ask for. */
  static final long MIN_LEASE_MS = 1_000;

  static final long MAX_LEASE_MS = 24L * 3600 * 1000;

  private PartialFiles() {}

  /** The lease's end, {@code leaseMs} from {@code now}, once the lease is checked. */
  static long until(long now, long leaseMs) {
    if (leaseMs < MIN_LEASE_MS || leaseMs > MAX_LEASE_MS) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "a partial copy's lease of "
              + leaseMs
              + " ms is not between "
              + MIN_LEASE_MS
              + " ms and a day");
    }
    return now + leaseMs;
  }

  /** A partial copy is renamed into place: from now on it is an ordinary file. */
  static InodeProto completed(NamespaceTxn tx, InodeProto in) {
    if (in.getPartialUntilMs() == 0) {
      return in;
    }
    tx.unindexPartial(in.getId());
    return in.toBuilder().clearPartialUntilMs().build();
  }

  /**
   * Removes the partial copy {@code fileId} if its lease ran out by {@code now} (the leader's clock
   * when it logged the expiry); returns whether it did (not when it was renewed, renamed into place
   * or removed meanwhile).
   */
  public static boolean expire(NamespaceTxn tx, long fileId, long now) {
    InodeProto in = tx.inode(fileId);
    byte[] link = tx.partialLink(fileId);
    if (in == null || link == null || in.getPartialUntilMs() == 0 || in.getPartialUntilMs() > now) {
      return false;
    }
    long parent = Keys.dentryParent(link);
    String name = Keys.dentryName(link);
    if (tx.child(parent, name) == fileId) {
      tx.unlink(parent, name);
      Inodes.touch(tx, parent, now);
    }
    Inodes.dropFile(tx, in);
    return true;
  }
}
