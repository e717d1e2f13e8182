package io.tessera.data.store;

import java.io.IOException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Frees the shard versions of deleted snapshots in the background: requests that arrive while a
 * pass is queued or running fold into one more pass.
 */
public final class GarbageCollector {
  private static final Logger LOG = LoggerFactory.getLogger(GarbageCollector.class);

  private final ShardStore store;
  private final ScheduledExecutorService executor;
  private final AtomicBoolean queued = new AtomicBoolean();

  public GarbageCollector(ShardStore store, ScheduledExecutorService executor) {
    this.store = store;
    this.executor = executor;
  }

  public void requestRun() {
    if (queued.compareAndSet(false, true)) {
      executor.execute(this::run);
    }
  }

  private void run() {
    queued.set(false);
    try {
      long dropped = store.collectGarbage();
      LOG.info(
          "Snapshot deleted: {} shard version(s) no snapshot sees any more were freed", dropped);
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "Freeing the versions of a deleted snapshot failed ({}); the next deletion retries",
          e.getMessage());
    }
  }
}
