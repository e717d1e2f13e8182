package io.tessera.data.store;

import java.io.IOException;

/** Stored shard bytes failed their CRC32C: treat the shard as missing and repair it. */
public final class CorruptShardException extends IOException {
  private final transient ShardId shard;

  public CorruptShardException(ShardId shard, long epoch) {
    super("shard " + shard + " at epoch " + epoch + " failed its checksum");
    this.shard = shard;
  }

  public ShardId shard() {
    return shard;
  }
}
