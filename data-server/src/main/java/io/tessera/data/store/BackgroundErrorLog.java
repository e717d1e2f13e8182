package io.tessera.data.store;

import java.util.Locale;
import org.rocksdb.AbstractEventListener;
import org.rocksdb.BackgroundErrorReason;
import org.rocksdb.Status;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs RocksDB's background errors (a compaction that met a corrupt blob, a flush that ran out of
 * space) as one line at most once a minute: RocksDB retries the failed job, and the operator needs
 * to know, not to read the same line on every retry.
 */
final class BackgroundErrorLog extends AbstractEventListener {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundErrorLog.class);
  private static final long QUIET_NANOS = 60_000_000_000L;

  private final String where;
  private long lastLoggedNanos = System.nanoTime() - QUIET_NANOS;
  private long suppressed;

  BackgroundErrorLog(String where) {
    super(EnabledEventCallback.ON_BACKGROUND_ERROR);
    this.where = where;
  }

  @Override
  public synchronized void onBackgroundError(BackgroundErrorReason reason, Status status) {
    long now = System.nanoTime();
    if (now - lastLoggedNanos < QUIET_NANOS) {
      suppressed++;
      return;
    }
    LOG.warn(
        "Shard store {}: background {} failed: {}{} (retried; corrupt shards are found by their checksums and"
            + " rebuilt)",
        where,
        reason.name().toLowerCase(Locale.ROOT),
        status == null ? "?" : status.getState(),
        suppressed > 0 ? " (and " + suppressed + " more since the last report)" : "");
    lastLoggedNanos = now;
    suppressed = 0;
  }
}
