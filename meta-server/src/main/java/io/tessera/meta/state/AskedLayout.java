package io.tessera.meta.state;

import io.tessera.common.proto.LayoutPolicyProto;

/**
 * A layout a request asked for in part: no k+m (0 data units) means the one the file or directory
 * would inherit, with the stripe unit asked for, if any.
 */
public final class AskedLayout {
  private AskedLayout() {}

  /** Whether {@code asked} leaves k+m to what is inherited. */
  public static boolean partial(LayoutPolicyProto asked) {
    return asked.getDataUnits() == 0;
  }

  /** {@code inherited}, with what a partial {@code asked} sets (its stripe unit, when given). */
  public static LayoutPolicyProto completed(LayoutPolicyProto asked, LayoutPolicyProto inherited) {
    LayoutPolicyProto.Builder b = inherited.toBuilder();
    if (asked.getStripeUnit() > 0) {
      b.setStripeUnit(asked.getStripeUnit());
    }
    return b.build();
  }
}
