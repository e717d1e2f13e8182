package io.tessera.common.layout;

import io.tessera.common.proto.ShardStateProto;

/**
 * What the states of one stripe's units say about its redundancy: the one rule fsck and recovery
 * both apply, so that a file recovery calls fully redundant is one fsck calls HEALTHY.
 *
 * <p>A unit counts as usable when it is stored or a hole (both read as what they hold); one that is
 * corrupt, unavailable or unknown (its server did not answer: null) is missing. Data stored beside
 * a parity unit that is a hole is also missing redundancy: that parity was never written, so losing
 * a data unit of the stripe would lose bytes.
 *
 * @param usable units that can be read as they are
 * @param missing units that cannot be used, plus parity holes beside stored data
 * @param corruptUnits bit {@code u} set: unit {@code u} failed its checksum
 * @param parityHoles bit {@code u} set: parity unit {@code u} is a hole beside stored data (its
 *     parity is to be recomputed from the data units)
 */
public record StripeRedundancy(int usable, int missing, long corruptUnits, long parityHoles) {
  /**
   * Judges a stripe from its units' states ({@code states[u]}, null where the server did not
   * answer) for a layout with {@code dataUnits} data units; at most 64 units.
   */
  public static StripeRedundancy of(ShardStateProto[] states, int dataUnits) {
    int usable = 0;
    int missing = 0;
    long corrupt = 0;
    boolean dataStored = false;
    for (int u = 0; u < states.length; u++) {
      boolean ok =
          states[u] == ShardStateProto.SHARD_STORED || states[u] == ShardStateProto.SHARD_ABSENT;
      usable += ok ? 1 : 0;
      missing += ok ? 0 : 1;
      if (states[u] == ShardStateProto.SHARD_CORRUPT) {
        corrupt |= 1L << u;
      }
      dataStored |= u < dataUnits && states[u] == ShardStateProto.SHARD_STORED;
    }
    long holes = 0;
    for (int u = dataUnits; u < states.length && dataStored; u++) {
      if (states[u] == ShardStateProto.SHARD_ABSENT) {
        holes |= 1L << u;
        missing++;
      }
    }
    return new StripeRedundancy(usable, missing, corrupt, holes);
  }

  /** Whether the stripe has all its redundancy. */
  public boolean whole() {
    return missing == 0;
  }

  /** Whether some parity is a hole beside stored data (repair: recompute the stripe's parity). */
  public boolean lacksParity() {
    return parityHoles != 0;
  }
}
