package io.tessera.common.dataio;

import io.tessera.common.cluster.LearnedLimit;
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

  /** How many times the configured lease a busy cluster may teach this caller to ask for. */
  static final int LEASE_CEILING = 4;

  private final LearnedLimit lease;

  public StripeLocks(Duration lease) {
    this.lease = new LearnedLimit(lease.toNanos(), LEASE_CEILING * lease.toNanos());
  }

  /**
   * How long a server keeps a lock of this caller before it frees it: the configured lease, or
   * twice the longest this caller recently held its locks to finish a write (on a loaded cluster a
   * write's phases wait in queues), at most {@link #LEASE_CEILING} times the configured lease (and
   * each server caps it, {@code tessera.data.max-lock-lease}).
   */
  public Duration lease() {
    return Duration.ofNanos(lease.nanos());
  }

  /** A write held its locks for {@code nanos} (finished, or lost its locks by running over). */
  public void held(long nanos) {
    lease.ended(nanos, System.nanoTime());
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
        .setLeaseMs((int) Math.min(Integer.MAX_VALUE, lease().toMillis()))
        .setCopyOnly(copyOnly)
        .build();
  }
}
