package io.tessera.data.lock;

import java.util.HashMap;
import java.util.Map;

/**
 * The stripes of each file writers asked to lock in the last {@link #WINDOW_NANOS}. A recovery lock
 * granted over such stripes counts as one writers waited on, even if none asked while it was held:
 * a busy file's writers retry within tens of milliseconds, so a short hold can fall between their
 * asks and still delay them. Stripes no writer touched cost nobody time, and recovery need not
 * pause for them: a file appended at its end while its earlier stripes are rebuilt chunk by chunk
 * delays nobody until the rebuild reaches the end.
 *
 * <p>Per file, one range covers every stripe asked for since the window last lapsed (asks within a
 * window of each other extend it), so memory stays one entry per file however writers scatter.
 */
final class RecentWriters {
  static final long WINDOW_NANOS = 1_000_000_000L;

  /** Entries kept at most; a server seeing more files written in one window forgets the oldest. */
  private static final int MAX_FILES = 65_536;

  private record Asked(long first, long end, long lastNanos) {
    boolean current(long now) {
      return now - lastNanos <= WINDOW_NANOS;
    }
  }

  private final Map<Long, Asked> asked = new HashMap<>();

  /**
   * A writer asked to lock stripes {@code [first, end)} of {@code fileId} at {@code now} (granted
   * or refused).
   */
  void asked(long fileId, long first, long end, long now) {
    Asked before = asked.get(fileId);
    if (before == null && asked.size() >= MAX_FILES) {
      asked.values().removeIf(a -> !a.current(now));
      if (asked.size() >= MAX_FILES) {
        asked.clear(); // more than MAX_FILES files written within a second: start over
      }
    }
    asked.put(
        fileId,
        before != null && before.current(now)
            ? new Asked(Math.min(first, before.first), Math.max(end, before.end), now)
            : new Asked(first, end, now));
  }

  /**
   * Whether a writer asked for any of stripes {@code [first, end)} of {@code fileId} within the
   * window before {@code now}.
   */
  boolean busy(long fileId, long first, long end, long now) {
    Asked a = asked.get(fileId);
    return a != null && a.current(now) && a.first < end && first < a.end;
  }
}
