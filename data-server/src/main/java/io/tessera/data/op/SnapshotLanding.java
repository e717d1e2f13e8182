package io.tessera.data.op;

import io.tessera.data.lock.StripeLockTable;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** A read at a snapshot waits for the writes the snapshot holds to land, for a bounded time. */
final class SnapshotLanding {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotLanding.class);

  /** Longest a snapshot read waits for writes its snapshot holds to land (a dead writer's). */
  static final Duration LANDING_WAIT = Duration.ofSeconds(10);

  private SnapshotLanding() {}

  /**
   * {@code landing}, the writes a snapshot at {@code epoch} holds landing (see {@link
   * StripeLockTable#whenLanded}), bounded by {@link #LANDING_WAIT}: then the read goes ahead.
   */
  static CompletableFuture<Void> bounded(CompletableFuture<Void> landing, long epoch) {
    return landing
        .orTimeout(LANDING_WAIT.toMillis(), TimeUnit.MILLISECONDS)
        .exceptionally(
            e -> {
              LOG.warn(
                  "A read of the snapshot at epoch {} waited {} s for a writer that held its stripes' locks when the"
                      + " snapshot was taken and has not written since; reading what landed",
                  epoch,
                  LANDING_WAIT.toSeconds());
              return null;
            });
  }
}
