package io.tessera.data.store;

import java.util.Arrays;

/**
 * The epoch a data server stamps new writes with, together with the epochs of every retained
 * snapshot; always replaced as one value, so a writer never sees a new epoch with an old list.
 *
 * <p>The version rule (redirect-on-write): a shard version stamped {@code e} must be kept while
 * some retained snapshot {@code S} has {@code e <= S < next}, where {@code next} is the epoch of
 * the shard's next newer version (or of the write about to supersede it). Reading snapshot {@code
 * S} seeks the newest version {@code <= S}.
 */
public record EpochState(long epoch, long[] retained) {
  public static final EpochState INITIAL = new EpochState(0, new long[0]);

  public EpochState {
    retained = retained.clone();
    Arrays.sort(retained);
  }

  /**
   * Whether a version stamped {@code version}, superseded at {@code next}, is some snapshot's view.
   */
  public boolean keeps(long version, long next) {
    int i = Arrays.binarySearch(retained, version);
    int first = i >= 0 ? i : -i - 1;
    return first < retained.length && retained[first] < next;
  }

  /**
   * How many retained snapshots see a version stamped {@code version} superseded at {@code next}.
   */
  public int viewers(long version, long next) {
    int n = 0;
    for (long s : retained) {
      if (s >= version && s < next) {
        n++;
      }
    }
    return n;
  }

  /** The retained snapshot that sees a version, when exactly one does; else -1. */
  public long onlyViewer(long version, long next) {
    long found = -1;
    for (long s : retained) {
      if (s >= version && s < next) {
        if (found >= 0) {
          return -1;
        }
        found = s;
      }
    }
    return found;
  }

  public boolean hasSnapshots() {
    return retained.length > 0;
  }

  @Override
  public String toString() {
    return "epoch " + epoch + ", snapshots at " + Arrays.toString(retained);
  }
}
