package io.tessera.client;

import java.util.concurrent.atomic.AtomicLong;

/** What the client's I/O layer counts, for benchmarks and operators. */
public final class IoCounters {
  /** Phase-1 attempts refused because another writer held an overlapping stripe lock. */
  public final AtomicLong lockRefusals = new AtomicLong();

  /**
   * Groups written again because a snapshot at their locks' epoch was committed before their size
   * or stale-server record landed.
   */
  public final AtomicLong snapshotRetries = new AtomicLong();

  /**
   * Groups written again because their phases took longer than their stripe locks' lease (a loaded
   * cluster) and recovery freed the locks.
   */
  public final AtomicLong lockLossRetries = new AtomicLong();

  /** Writes that had to skip servers (each newly skipped set counts once per file). */
  public final AtomicLong degradedWrites = new AtomicLong();

  /** Stripes read by decoding around a missing or corrupt unit. */
  public final AtomicLong degradedStripeReads = new AtomicLong();

  /** Shard bytes data servers returned to reads (data and, for decoding, parity). */
  public final AtomicLong shardBytesRead = new AtomicLong();

  /**
   * Region lock and unlock requests sent to the lock home (renews not counted): a cached region
   * locked again costs none.
   */
  public final AtomicLong regionRoundTrips = new AtomicLong();
}
