package io.tessera.data.store;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;

/**
 * A data server's storage of shards. Every write is stamped with the store's current epoch;
 * reads see the newest version. Implementations are thread-safe.
 */
public interface ShardStore extends Closeable {

  /** Applies all writes atomically; with {@code sync} they are on stable storage on return. */
  void write(List<ShardWrite> writes, boolean sync) throws IOException;

  /**
   * Copies {@code length} bytes at {@code offset} of the shard into {@code dst} at
   * {@code dstOffset}; bytes never written read as zeros.
   *
   * @return whether the shard exists at all
   * @throws CorruptShardException when the stored bytes fail their checksum
   */
  boolean read(ShardId shard, int offset, int length, byte[] dst, int dstOffset) throws IOException;

  /** Removes every shard of a file. */
  void deleteFile(long fileId) throws IOException;

  /**
   * Keeps stripes below {@code stripe}; of stripe {@code stripe} keeps {@code keepLengths[unit]}
   * bytes of each unit; removes later stripes.
   */
  void truncateFile(long fileId, long stripe, int[] keepLengths) throws IOException;

  /** Makes every acknowledged write durable against power loss. */
  void sync() throws IOException;

  /** The epoch new writes are stamped with. */
  long epoch();

  void setEpoch(long epoch);

  /** Bytes of stored data, approximately. */
  long usedBytes();
}
