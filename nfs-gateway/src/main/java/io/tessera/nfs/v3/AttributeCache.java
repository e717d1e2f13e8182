package io.tessera.nfs.v3;

import io.tessera.client.FileStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Attributes of inodes the gateway resolved lately, so a run of calls on one file (a copy's WRITEs)
 * or in one directory (CREATEs) costs no meta round trip each. Bounded, least recently used out
 * first. An entry serves at most {@code tessera.nfs.attribute-cache} after it was fetched: others'
 * changes show within that, as through an NFS client's own attribute cache (actimeo). The gateway's
 * own changes act at once: a change to an inode's attributes or path drops its entry; new or
 * removed entries in a directory, or writes to a file, mark its entry changed, which still serves
 * for the checks of a call but not as the answer to GETATTR.
 */
final class AttributeCache {
  private record Key(int kind, long epoch, long fileId) {}

  private record Entry(FileStatus status, long fetchedNanos, boolean changed) {}

  private final long maxAgeNanos;
  private final LongSupplier clock;
  private final Map<Key, Entry> entries;

  AttributeCache(Duration maxAge, int capacity, LongSupplier clock) {
    this.maxAgeNanos = maxAge.toNanos();
    this.clock = clock;
    this.entries =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
            return size() > capacity;
          }
        };
  }

  /**
   * The attributes of {@code h} if fetched within the age limit, else null; with {@code
   * unchangedOnly}, null too for an entry the gateway's own calls changed since.
   */
  synchronized FileStatus get(FileHandle h, boolean unchangedOnly) {
    if (maxAgeNanos <= 0) {
      return null;
    }
    Key k = key(h);
    Entry e = entries.get(k);
    if (e == null || clock.getAsLong() - e.fetchedNanos() > maxAgeNanos) {
      entries.remove(k);
      return null;
    }
    return unchangedOnly && e.changed() ? null : e.status();
  }

  synchronized void put(FileHandle h, FileStatus status) {
    if (maxAgeNanos > 0) {
      entries.put(key(h), new Entry(status, clock.getAsLong(), false));
    }
  }

  /** The live inode's attributes or path changed: fetch them again. */
  synchronized void forget(long fileId) {
    entries.remove(new Key(FileHandle.LIVE, 0, fileId));
  }

  /** The live inode's entries or data changed: its mode, owner and path still hold. */
  synchronized void changed(long fileId) {
    entries.computeIfPresent(
        new Key(FileHandle.LIVE, 0, fileId),
        (k, e) -> new Entry(e.status(), e.fetchedNanos(), true));
  }

  /** A rename moved a subtree: every path below it changed. */
  synchronized void clear() {
    entries.clear();
  }

  private static Key key(FileHandle h) {
    return new Key(h.kind(), h.kind() == FileHandle.SNAPSHOT ? h.epoch() : 0, h.fileId());
  }
}
