package io.tessera.common.dataio;

import io.tessera.common.proto.StripeLockProto;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stripe locks one caller asks for (a client, or the meta leader's recovery): each with an
 * operation number unique within the caller, so a server tells its locks apart, and the caller's
 * lease.
 */
public final class StripeLocks {
  private final AtomicLong operations =
      new AtomicLong(ThreadLocalRandom.current().nextLong(1L << 40));
  private final Duration lease;

  public StripeLocks(Duration lease) {
    this.lease = lease;
  }

  /** How long a server keeps a lock of this caller before it frees it. */
  public Duration lease() {
    return lease;
  }

  /** A lock on stripes {@code [first, first + count)} of a file. */
  public StripeLockProto lock(long fileId, long first, int count) {
    return lock(fileId, first, count, false);
  }

  /** {@code copyOnly}: a rebuild's lock, whose holder writes only to the server being rebuilt. */
  public StripeLockProto lock(long fileId, long first, int count, boolean copyOnly) {
    return StripeLockProto.newBuilder()
        .setFileId(fileId)
        .setFirstStripe(first)
        .setStripeCount(count)
        .setOperation(operations.incrementAndGet())
        .setLeaseMs((int) Math.min(Integer.MAX_VALUE, lease.toMillis()))
        .setCopyOnly(copyOnly)
        .build();
  }
}
