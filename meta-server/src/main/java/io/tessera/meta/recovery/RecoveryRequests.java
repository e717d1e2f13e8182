package io.tessera.meta.recovery;

import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.WriteShardsRequestProto;

/** The pieces of data.proto requests recovery builds the same way wherever it sends them. */
final class RecoveryRequests {
  private RecoveryRequests() {}

  /** A request for a file planned with {@code layout}. */
  static DataRequestProto.Builder forLayout(StripeLayout layout) {
    return DataRequestProto.newBuilder().setLayoutGeneration(layout.generation());
  }

  /**
   * A write of whole units a rebuild or a move puts on their new server: nothing reads them back
   * soon, so the server may store them past its page cache (direct I/O) instead of copying every
   * rebuilt byte into cache pages that crowd out the foreground's.
   */
  static WriteShardsRequestProto.Builder rebuiltUnits() {
    return WriteShardsRequestProto.newBuilder().setWholeStripes(true);
  }

  /** A write range that makes the unit a hole on its server (whatever version it kept). */
  static ShardRangeProto hole(long fileId, long stripe, int unit) {
    return ShardRangeProto.newBuilder()
        .setFileId(fileId)
        .setStripe(stripe)
        .setUnit(unit)
        .setHole(true)
        .build();
  }

  /** The unit of stripe s that lives on the server. */
  static int unitOn(StripeLayout layout, long stripe, String server) {
    for (int u = 0; u < layout.width(); u++) {
      if (layout.serverOf(stripe, u).equals(server)) {
        return u;
      }
    }
    throw new IllegalArgumentException(server + " holds no unit of stripe " + stripe);
  }

  /** The stripes a file of {@code size} bytes has. */
  static long stripes(StripeLayout layout, long size) {
    return (size + layout.stripeDataBytes() - 1) / layout.stripeDataBytes();
  }
}
