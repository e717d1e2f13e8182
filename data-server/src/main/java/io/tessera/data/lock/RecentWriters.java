package io.tessera.data.lock;

import java.util.HashMap;
import java.util.Map;

/**
 * Files whose stripes a writer asked to lock in the last {@link #WINDOW_NANOS}. A recovery lock
 * granted on such a file counts as one writers waited on, even if none asked while it was held: a
 * busy file's writers retry within tens of milliseconds, so a short hold can fall between their
 * asks and still delay them. A file no writer touched costs nobody time, and recovery need not
 * pause for it.
 */
final class RecentWriters {
  static final long WINDOW_NANOS = 1_000_000_000L;

  /** Entries kept at most; a server seeing more files written in one window forgets the oldest. */
  private static final int MAX_FILES = 65_536;

  private final Map<Long, Long> lastAskNanos = new HashMap<>();

  /** A writer asked to lock stripes of {@code fileId} at {@code now} (granted or refused). */
  void asked(long fileId, long now) {
    if (lastAskNanos.size() >= MAX_FILES && !lastAskNanos.containsKey(fileId)) {
      lastAskNanos.values().removeIf(t -> now - t > WINDOW_NANOS);
      if (lastAskNanos.size() >= MAX_FILES) {
        lastAskNanos.clear(); // more than MAX_FILES files written within a second: start over
      }
    }
    lastAskNanos.put(fileId, now);
  }

  /** Whether a writer asked for stripes of {@code fileId} within the window before {@code now}. */
  boolean busy(long fileId, long now) {
    Long t = lastAskNanos.get(fileId);
    return t != null && now - t <= WINDOW_NANOS;
  }
}
