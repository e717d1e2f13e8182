package io.tessera.data.store;

import java.nio.ByteBuffer;

/**
 * Key codec: {@code fileId | stripe | unit | epoch}, big-endian so that a file's shards are
 * adjacent and a shard's versions sort oldest first.
 */
final class ShardKey {
  static final int LENGTH = 8 + 8 + 4 + 8;

  private ShardKey() {}

  static byte[] encode(ShardId id, long epoch) {
    return ByteBuffer.allocate(LENGTH)
        .putLong(id.fileId())
        .putLong(id.stripe())
        .putInt(id.unit())
        .putLong(epoch)
        .array();
  }

  /** The first key of a file's shards at or after this stripe. */
  static byte[] fileFrom(long fileId, long stripe) {
    return ByteBuffer.allocate(LENGTH).putLong(fileId).putLong(stripe).putInt(0).putLong(0).array();
  }

  static ShardId shardOf(byte[] key) {
    ByteBuffer b = ByteBuffer.wrap(key);
    return new ShardId(b.getLong(), b.getLong(), b.getInt());
  }

  static long epochOf(byte[] key) {
    return ByteBuffer.wrap(key, 20, 8).getLong();
  }

  static boolean sameShard(byte[] key, ShardId id) {
    return key.length == LENGTH && shardOf(key).equals(id);
  }
}
