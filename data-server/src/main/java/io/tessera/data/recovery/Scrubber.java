package io.tessera.data.recovery;

import io.tessera.data.store.ShardId;
import io.tessera.data.store.ShardStore;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads every stored shard version in the background at a low rate and checks its CRC32C, so
 * corruption of data nobody reads is found (and repaired) before a second failure needs it. A pass
 * starts at most every {@link #MIN_PASS_INTERVAL} (the first right after start); a pass that found
 * corruption ends with one log line.
 */
public final class Scrubber {
  private static final Logger LOG = LoggerFactory.getLogger(Scrubber.class);

  static final long MIN_PASS_INTERVAL_NANOS = Duration.ofMinutes(10).toNanos();
  private static final String MIN_PASS_INTERVAL = "10 minutes";

  private final ShardStore store;
  private final CorruptionReport report;
  private final long bytesPerSecond;
  private byte[] cursor;
  private long passStartNanos = System.nanoTime();
  private long passBytes;
  private long passCorrupt;
  private long passSnapshotOnly;

  /** Corrupt snapshot-only versions named one by one per pass; the rest only counted. */
  private static final int MAX_LOGGED_SNAPSHOT_ONLY = 10;

  private long passes;

  public Scrubber(ShardStore store, CorruptionReport report, long bytesPerSecond) {
    this.store = store;
    this.report = report;
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Scrubs a second's worth of bytes every second on {@code timer}; a rate of 0 disables it. */
  public void start(ScheduledExecutorService timer) {
    if (bytesPerSecond > 0) {
      timer.scheduleWithFixedDelay(this::step, 1, 1, TimeUnit.SECONDS);
    }
  }

  void step() {
    if (cursor == null
        && passes > 0
        && System.nanoTime() - passStartNanos < MIN_PASS_INTERVAL_NANOS) {
      return;
    }
    try {
      if (cursor == null) {
        passStartNanos = System.nanoTime();
      }
      List<ShardId> corrupt = new ArrayList<>();
      List<String> snapshotOnly = new ArrayList<>();
      cursor = store.scrub(cursor, bytesPerSecond, corrupt, snapshotOnly);
      passBytes += bytesPerSecond;
      for (ShardId id : corrupt) {
        passCorrupt++;
        report.found(id.fileId(), "scrubber: " + id);
      }
      for (String version : snapshotOnly) {
        // not reported for repair: recovery rewrites live shards, which are sound
        if (passSnapshotOnly++ < MAX_LOGGED_SNAPSHOT_ONLY) {
          LOG.warn(
              "Scrubber: {} fails its checksum; it is kept only for snapshots, whose reads decode around it"
                  + " (not repaired)",
              version);
        }
      }
      if (cursor == null) {
        passes++;
        if (passCorrupt > 0 || passSnapshotOnly > 0) {
          LOG.warn(
              "Scrub pass {} finished in {} s: {} corrupt shard(s) found and reported for repair, {} corrupt"
                  + " version(s) kept only for snapshots",
              passes,
              (System.nanoTime() - passStartNanos) / 1_000_000_000L,
              passCorrupt,
              passSnapshotOnly);
        } else {
          LOG.debug(
              "Scrub pass {} finished in {} s: every checksum matched",
              passes,
              (System.nanoTime() - passStartNanos) / 1_000_000_000L);
        }
        passBytes = 0;
        passCorrupt = 0;
        passSnapshotOnly = 0;
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("Scrub step failed: {}", e.getMessage());
    }
  }

  public long passes() {
    return passes;
  }
}
