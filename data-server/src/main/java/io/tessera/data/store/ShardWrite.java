package io.tessera.data.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/**
 * Bytes to place at {@code offset} inside a shard; the caller keeps ownership of {@code data}. When
 * {@code coversUnit} the bytes are the whole unit and replace whatever was stored without reading
 * it. {@code pastCache}: the unit will not be read back soon (a whole stripe streamed out), so a
 * value file may be written with direct I/O. {@code hole}: the unit becomes a hole (reads as zeros,
 * nothing stored), superseding whatever version it had.
 */
public record ShardWrite(
    ShardId shard, int offset, ByteBuf data, boolean coversUnit, boolean pastCache, boolean hole) {
  public ShardWrite(ShardId shard, int offset, ByteBuf data, boolean coversUnit) {
    this(shard, offset, data, coversUnit, false);
  }

  public ShardWrite(
      ShardId shard, int offset, ByteBuf data, boolean coversUnit, boolean pastCache) {
    this(shard, offset, data, coversUnit, pastCache, false);
  }

  /** Makes the unit a hole, as the file's other servers have it. */
  public static ShardWrite hole(ShardId shard) {
    return new ShardWrite(shard, 0, Unpooled.EMPTY_BUFFER, true, false, true);
  }

  public int length() {
    return data.readableBytes();
  }
}
