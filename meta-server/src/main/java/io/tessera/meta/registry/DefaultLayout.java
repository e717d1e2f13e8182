package io.tessera.meta.registry;

import io.tessera.common.proto.LayoutPolicyProto;

/**
 * The layout of files that neither ask for one nor inherit one: {@code auto}, the widest of 6+3,
 * 4+2, 2+1 and 1+1 that the cluster's data servers can hold (a file survives losing m of its
 * servers; one server alone can only hold 1+0), or a fixed {@code K+M}.
 */
public record DefaultLayout(int dataUnits, int parityUnits) {
  /** Chosen from the data servers the cluster has. */
  public static final DefaultLayout AUTO = new DefaultLayout(0, 0);

  private static final int[][] SAFE = {{6, 3}, {4, 2}, {2, 1}, {1, 1}};

  /** {@code auto} or {@code K+M} (e.g. 6+3, 4+0). */
  public static DefaultLayout parse(String text) {
    String t = text.trim();
    if (t.equalsIgnoreCase("auto")) {
      return AUTO;
    }
    String[] km = t.split("\\+");
    try {
      if (km.length == 2) {
        DefaultLayout d =
            new DefaultLayout(Integer.parseInt(km[0].trim()), Integer.parseInt(km[1].trim()));
        if (d.dataUnits >= 1 && d.parityUnits >= 0 && d.dataUnits + d.parityUnits <= 255) {
          return d;
        }
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new IllegalArgumentException(
        "'" + text + "' is not auto or K+M (e.g. 6+3: 6 data and 3 parity units)");
  }

  /** The widest safe layout {@code servers} data servers can hold ({@link #AUTO}'s rule). */
  public static LayoutPolicyProto widestSafe(int servers, int stripeUnit) {
    for (int[] km : SAFE) {
      if (km[0] + km[1] <= servers) {
        return policy(km[0], km[1], stripeUnit);
      }
    }
    return policy(Math.max(1, servers), 0, stripeUnit);
  }

  /** This default for a cluster of {@code servers} data servers. */
  public LayoutPolicyProto policyFor(int servers, int stripeUnit) {
    return this.equals(AUTO)
        ? widestSafe(servers, stripeUnit)
        : policy(dataUnits, parityUnits, stripeUnit);
  }

  private static LayoutPolicyProto policy(int k, int m, int unit) {
    return LayoutPolicyProto.newBuilder()
        .setDataUnits(k)
        .setParityUnits(m)
        .setStripeUnit(unit)
        .build();
  }

  @Override
  public String toString() {
    return equals(AUTO) ? "auto" : dataUnits + "+" + parityUnits;
  }
}
