package io.tessera.data.store;

/**
 * Bytes to place at {@code offset} inside a shard. When {@code coversUnit} the bytes are the
 * whole unit and replace whatever was stored without reading it.
 */
public record ShardWrite(ShardId shard, int offset, byte[] data, int dataOffset, int length, boolean coversUnit) {}
