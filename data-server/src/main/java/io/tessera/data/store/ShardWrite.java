package io.tessera.data.store;

import io.netty.buffer.ByteBuf;

/**
 * Bytes to place at {@code offset} inside a shard; the caller keeps ownership of {@code data}.
 * When {@code coversUnit} the bytes are the whole unit and replace whatever was stored without
 * reading it.
 */
public record ShardWrite(ShardId shard, int offset, ByteBuf data, boolean coversUnit) {
  public int length() {
    return data.readableBytes();
  }
}
