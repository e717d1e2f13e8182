package io.tessera.data.store;

import java.io.IOException;

/** Stored shard bytes failed their CRC32C or are gone: treat the shard as missing and repair it. */
public final class CorruptShardException extends IOException {
  private final transient ShardId shard;

  public CorruptShardException(ShardId shard, long epoch) {
    this(shard, epoch, "failed its checksum");
  }

  /** Stored bytes that cannot be read at all ({@code what}: what is wrong with them). */
  public CorruptShardException(ShardId shard, long epoch, String what) {
    super("shard " + shard + " at epoch " + epoch + " " + what);
    this.shard = shard;
  }

  public ShardId shard() {
    return shard;
  }
}
