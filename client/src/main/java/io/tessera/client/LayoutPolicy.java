package io.tessera.client;

import io.tessera.common.config.DataSize;
import io.tessera.common.proto.LayoutPolicyProto;

/**
 * The layout a directory hands down to the files created in it: {@code dataUnits} data units and
 * {@code parityUnits} parity units per stripe, {@code stripeUnit} bytes each (no servers: those are
 * chosen for each file).
 */
public record LayoutPolicy(int dataUnits, int parityUnits, int stripeUnit) {
  static LayoutPolicy of(LayoutPolicyProto p) {
    return new LayoutPolicy(p.getDataUnits(), p.getParityUnits(), p.getStripeUnit());
  }

  /** Data servers a file of this layout spans. */
  public int width() {
    return dataUnits + parityUnits;
  }

  /** "RS 6+3, unit 1 MiB", or "striped 6+0, unit 1 MiB" without parity. */
  @Override
  public String toString() {
    return (parityUnits == 0
            ? "striped " + dataUnits + "+0"
            : "RS " + dataUnits + "+" + parityUnits)
        + ", unit "
        + DataSize.format(stripeUnit);
  }
}
