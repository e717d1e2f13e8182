package io.tessera.common.region;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The regions one client holds of one file: disjoint, each shared or exclusive. Adding a region
 * over one already held keeps the stronger mode where they overlap, so a client asking for a shared
 * lock inside an exclusive one it holds never weakens it. Not thread-safe.
 */
public final class HeldRegions {
  private final TreeMap<Long, Region> byStart = new TreeMap<>();

  /** Holds {@code r} too; where it overlaps a held region, exclusive if either is. */
  public void add(Region r) {
    List<Region> parts = new ArrayList<>();
    long at = r.start();
    for (Region h : takeOverlapping(r.start(), r.end())) {
      if (h.start() < r.start()) {
        parts.add(new Region(h.start(), r.start(), h.exclusive()));
      }
      if (h.end() > r.end()) {
        parts.add(new Region(r.end(), h.end(), h.exclusive()));
      }
      long from = Math.max(h.start(), r.start());
      long to = Math.min(h.end(), r.end());
      if (at < from) {
        parts.add(new Region(at, from, r.exclusive()));
      }
      parts.add(new Region(from, to, h.exclusive() || r.exclusive()));
      at = to;
    }
    if (at < r.end()) {
      parts.add(new Region(at, r.end(), r.exclusive()));
    }
    parts.forEach(this::put);
  }

  /** Gives up bytes {@code [start, end)}, keeping what is held on either side. */
  public void remove(long start, long end) {
    for (Region h : takeOverlapping(start, end)) {
      if (h.start() < start) {
        put(new Region(h.start(), start, h.exclusive()));
      }
      if (h.end() > end) {
        put(new Region(end, h.end(), h.exclusive()));
      }
    }
  }

  /** Whether every byte of {@code [start, end)} is held, exclusively if {@code exclusive}. */
  public boolean covers(long start, long end, boolean exclusive) {
    long at = start;
    Map.Entry<Long, Region> e = byStart.floorEntry(start);
    Region h = e == null ? null : e.getValue();
    if (h == null || h.end() <= start) {
      Map.Entry<Long, Region> next = byStart.higherEntry(start);
      h = next == null ? null : next.getValue();
    }
    while (at < end) {
      if (h == null || h.start() > at || (exclusive && !h.exclusive())) {
        return false;
      }
      at = h.end();
      Map.Entry<Long, Region> next = byStart.higherEntry(h.start());
      h = next == null ? null : next.getValue();
    }
    return true;
  }

  /** The held parts of {@code [start, end)}, clipped to it, in order. */
  public List<Region> overlapping(long start, long end) {
    List<Region> out = new ArrayList<>();
    for (Region h : overlappingWhole(start, end)) {
      out.add(new Region(Math.max(h.start(), start), Math.min(h.end(), end), h.exclusive()));
    }
    return out;
  }

  /** Every held region, in order. */
  public List<Region> all() {
    return List.copyOf(byStart.values());
  }

  public boolean isEmpty() {
    return byStart.isEmpty();
  }

  public int size() {
    return byStart.size();
  }

  private List<Region> overlappingWhole(long start, long end) {
    List<Region> out = new ArrayList<>();
    Map.Entry<Long, Region> first = byStart.floorEntry(start);
    long from = first != null && first.getValue().end() > start ? first.getKey() : start;
    for (Region h : byStart.subMap(from, true, end, false).values()) {
      if (h.overlaps(start, end)) {
        out.add(h);
      }
    }
    return out;
  }

  private List<Region> takeOverlapping(long start, long end) {
    List<Region> taken = overlappingWhole(start, end);
    taken.forEach(h -> byStart.remove(h.start()));
    return taken;
  }

  /** Stores {@code r}, merged with a neighbour of the same mode that touches it. */
  private void put(Region r) {
    Region merged = r;
    Map.Entry<Long, Region> before = byStart.lowerEntry(r.start());
    if (before != null
        && before.getValue().end() == r.start()
        && before.getValue().exclusive() == r.exclusive()) {
      byStart.remove(before.getKey());
      merged = new Region(before.getValue().start(), merged.end(), r.exclusive());
    }
    Region after = byStart.get(r.end());
    if (after != null && after.exclusive() == r.exclusive()) {
      byStart.remove(after.start());
      merged = new Region(merged.start(), after.end(), r.exclusive());
    }
    byStart.put(merged.start(), merged);
  }
}
