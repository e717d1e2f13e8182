package io.tessera.common.dataio;

import io.tessera.common.proto.ShardRangeProto;

/** The one way ranges of shards are named in data.proto reads and writes. */
public final class ShardRanges {
  private ShardRanges() {}

  /** Bytes {@code [offset, offset + length)} of unit {@code unit} of stripe {@code stripe}. */
  public static ShardRangeProto.Builder of(
      long fileId, long stripe, int unit, int offset, int length) {
    return ShardRangeProto.newBuilder()
        .setFileId(fileId)
        .setStripe(stripe)
        .setUnit(unit)
        .setOffset(offset)
        .setLength(length);
  }
}
