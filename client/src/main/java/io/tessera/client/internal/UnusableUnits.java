package io.tessera.client.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The (stripe, unit) pairs one read or write must not use again: their shard failed its checksum.
 * Combined with the file's stale servers and the client's down servers in {@link #usable}.
 */
final class UnusableUnits {
  private final Set<Long> units = ConcurrentHashMap.newKeySet();

  /** One long per (stripe, unit): a stripe has at most 255 units. */
  static long key(long stripe, int unit) {
    return stripe * 256 + unit;
  }

  void add(long stripe, int unit) {
    units.add(key(stripe, unit));
  }

  void addKey(long key) {
    units.add(key);
  }

  boolean contains(long stripe, int unit) {
    return units.contains(key(stripe, unit));
  }

  /**
   * Whether unit {@code u} of {@code stripe} can be used: not marked here, server neither stale nor
   * down.
   */
  boolean usable(FileTarget file, ServerHealth health, long stripe, int u) {
    return !contains(stripe, u) && file.usable(health, stripe, u);
  }
}
