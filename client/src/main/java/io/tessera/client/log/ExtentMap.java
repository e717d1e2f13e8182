package io.tessera.client.log;

import io.tessera.common.layout.LogRecord;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where each byte of a log file lives: non-overlapping extents of the file, each in one writer's
 * data log. Records are added oldest first; a later one replaces what it overlaps.
 */
final class ExtentMap {
  /**
   * Bytes {@code [start, end)} of the file are at {@code physical} of {@code writer}'s data log.
   */
  record Extent(long start, long end, int writer, long physical, long stampMicros) {
    long length() {
      return end - start;
    }

    Extent from(long newStart) {
      return new Extent(newStart, end, writer, physical + (newStart - start), stampMicros);
    }

    Extent until(long newEnd) {
      return new Extent(start, newEnd, writer, physical, stampMicros);
    }
  }

  private final TreeMap<Long, Extent> byStart = new TreeMap<>();

  /** Adds a record newer than every one added before. */
  void add(LogRecord r) {
    long start = r.logicalOffset();
    long end = r.logicalEnd();
    Map.Entry<Long, Extent> before = byStart.lowerEntry(start);
    if (before != null && before.getValue().end() > start) {
      Extent e = before.getValue();
      byStart.put(e.start(), e.until(start));
      if (e.end() > end) {
        byStart.put(end, e.from(end));
      }
    }
    Iterator<Extent> covered = byStart.subMap(start, true, end, false).values().iterator();
    Extent tail = null;
    while (covered.hasNext()) {
      Extent e = covered.next();
      covered.remove();
      if (e.end() > end) {
        tail = e.from(end);
      }
    }
    if (tail != null) {
      byStart.put(tail.start(), tail);
    }
    byStart.put(start, new Extent(start, end, r.writer(), r.physicalOffset(), r.stampMicros()));
  }

  /** The extents overlapping {@code [pos, pos+len)}, cut to it, in file order. */
  List<Extent> within(long pos, long len) {
    long end = pos + len;
    List<Extent> out = new ArrayList<>();
    Map.Entry<Long, Extent> first = byStart.floorEntry(pos);
    Long from = first != null && first.getValue().end() > pos ? first.getKey() : pos;
    for (Extent e : byStart.subMap(from, true, end, false).values()) {
      Extent cut = e;
      if (cut.start() < pos) {
        cut = cut.from(pos);
      }
      if (cut.end() > end) {
        cut = cut.until(end);
      }
      if (cut.length() > 0) {
        out.add(cut);
      }
    }
    return out;
  }

  /** Every extent, in file order (what a flattened index records). */
  Iterable<Extent> all() {
    return byStart.values();
  }

  int size() {
    return byStart.size();
  }
}
