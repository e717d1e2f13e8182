package io.tessera.data.store;

import io.netty.buffer.ByteBuf;

/**
 * Bytes to place at {@code offset} inside a shard; the caller keeps ownership of {@code data}.
 * When {@code coversUnit} the bytes are the whole unit and replace whatever was stored without
 * reading it. {@code pastCache}: the unit will not be read back soon (a whole stripe streamed
 * out), so a value file may be written with direct I/O.
 */
public record ShardWrite(ShardId shard, int offset, ByteBuf data, boolean coversUnit, boolean pastCache) {
  public ShardWrite(ShardId shard, int offset, ByteBuf data, boolean coversUnit) {
    this(shard, offset, data, coversUnit, false);
  }

  public int length() {
    return data.readableBytes();
  }
}
