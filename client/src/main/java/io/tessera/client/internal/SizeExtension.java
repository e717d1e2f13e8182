package io.tessera.client.internal;

import java.util.concurrent.CompletableFuture;

/**
 * Records a file's new size in the meta group for a write that ends past it. A write with parity
 * calls it between its phases, holding its stripe locks, and says which epoch its data units will
 * be stamped with and since when it holds its locks: the size record is refused ({@code
 * SNAPSHOT_PASSED}) once a snapshot at that epoch has been committed, because that snapshot's
 * namespace would not cover the data it holds.
 */
@FunctionalInterface
public interface SizeExtension {
  /** A write stamped with no epoch of its own (files without parity). */
  long UNSTAMPED = -1;

  /** Nothing to record: the write never grows the file. */
  SizeExtension NONE = (end, epoch, lockedSinceNanos) -> CompletableFuture.completedFuture(null);

  /**
   * Completes once the recorded size is at least {@code end}, recorded before the write's locks
   * were requested ({@code lockedSinceNanos}, a {@link System#nanoTime()}) or under {@code epoch};
   * {@code epoch} is {@link #UNSTAMPED} for writes without locks.
   */
  CompletableFuture<Void> extendTo(long end, long epoch, long lockedSinceNanos);
}
