package io.tessera.common.dataio;

import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.WriteShardsRequestProto;

/**
 * Ranges to write to one data server and their bytes, gathered into one request: each range's bytes
 * join the payload where they lie (wrapped, not copied), in the order of the ranges. The client's
 * writes and recovery's both write through it.
 */
public final class WriteBatch {
  private final WriteShardsRequestProto.Builder request;
  private final CompositeByteBuf payload;
  private long bytes;

  /**
   * @param request the request's own fields (sync, unlock, epoch, guard); ranges are added here
   * @param expectedRanges how many ranges are likely (sizes the payload's component list)
   */
  public WriteBatch(WriteShardsRequestProto.Builder request, int expectedRanges) {
    this.request = request;
    this.payload = Unpooled.compositeBuffer(Math.max(2, expectedRanges));
  }

  /**
   * Adds bytes {@code [at, at + length)} of {@code from} as {@code [offset, offset + length)} of
   * unit {@code unit} of stripe {@code stripe}.
   *
   * @param coversUnit the range replaces the whole unit (the server does not read its old version);
   *     a unit past the end of the file may be shorter than the stripe unit
   */
  public void add(
      long fileId,
      long stripe,
      int unit,
      int offset,
      byte[] from,
      int at,
      int length,
      boolean coversUnit) {
    request.addRanges(
        ShardRanges.of(fileId, stripe, unit, offset, length).setCoversUnit(coversUnit));
    payload.addComponent(true, Unpooled.wrappedBuffer(from, at, length));
    bytes += length;
  }

  /** Adds a range that carries no bytes (a hole recovery writes). */
  public void addEmpty(ShardRangeProto range) {
    request.addRanges(range);
  }

  public boolean isEmpty() {
    return request.getRangesCount() == 0;
  }

  public WriteShardsRequestProto.Builder request() {
    return request;
  }

  /** The bytes of every range, in order; sending it passes ownership on. */
  public CompositeByteBuf payload() {
    return payload;
  }

  public long bytes() {
    return bytes;
  }
}
