package io.tessera.common.region;

import io.tessera.common.proto.RegionRangeProto;

/**
 * Bytes {@code [start, end)} of a file, held shared or exclusive; {@code end} {@link #TO_END} runs
 * to the end of any file.
 */
public record Region(long start, long end, boolean exclusive) {
  public static final long TO_END = Long.MAX_VALUE;

  public Region {
    if (start < 0 || end <= start) {
      throw new IllegalArgumentException("empty or negative region [" + start + ", " + end + ")");
    }
  }

  /** The region of {@code length} bytes at {@code offset} (0: to the end of any file). */
  public static Region of(long offset, long length, boolean exclusive) {
    if (offset < 0 || length < 0) {
      throw new IllegalArgumentException(
          "a region needs a non-negative offset and length, not " + offset + " and " + length);
    }
    long end = length == 0 || offset > TO_END - length ? TO_END : offset + length;
    return new Region(offset, end, exclusive);
  }

  public static Region of(RegionRangeProto p) {
    return of(p.getOffset(), p.getLength(), p.getExclusive());
  }

  public long length() {
    return end == TO_END ? 0 : end - start;
  }

  public boolean overlaps(long a, long b) {
    return start < b && a < end;
  }

  /** Whether holders of this and {@code other} (different clients) cannot hold both at once. */
  public boolean conflicts(Region other) {
    return (exclusive || other.exclusive) && overlaps(other.start, other.end);
  }

  public RegionRangeProto toProto(long fileId) {
    return RegionRangeProto.newBuilder()
        .setFileId(fileId)
        .setOffset(start)
        .setLength(length())
        .setExclusive(exclusive)
        .build();
  }

  @Override
  public String toString() {
    return (exclusive ? "exclusive" : "shared")
        + " ["
        + start
        + ", "
        + (end == TO_END ? "end" : Long.toString(end))
        + ")";
  }
}
