package io.tessera.client;

import io.tessera.common.config.DataSize;
import io.tessera.common.proto.LayoutKindProto;
import io.tessera.common.proto.LayoutPolicyProto;

/**
 * The layout a directory hands down to the files created in it: {@code dataUnits} data units and
 * {@code parityUnits} parity units per stripe, {@code stripeUnit} bytes each (no servers: those are
 * chosen for each file); {@code log}: the files are log-structured, their writers' logs of this
 * layout.
 */
public record LayoutPolicy(int dataUnits, int parityUnits, int stripeUnit, boolean log) {
  static LayoutPolicy of(LayoutPolicyProto p) {
    return new LayoutPolicy(
        p.getDataUnits(),
        p.getParityUnits(),
        p.getStripeUnit(),
        p.getKind() == LayoutKindProto.LOG);
  }

  /** Data servers a file of this layout spans. */
  public int width() {
    return dataUnits + parityUnits;
  }

  /** "RS 6+3, unit 1 MiB", or "striped 6+0, unit 1 MiB" without parity; "log, ..." for logs. */
  @Override
  public String toString() {
    return (log ? "log, " : "")
        + (parityUnits == 0 ? "striped " + dataUnits + "+0" : "RS " + dataUnits + "+" + parityUnits)
        + ", unit "
        + DataSize.format(stripeUnit);
  }
}
