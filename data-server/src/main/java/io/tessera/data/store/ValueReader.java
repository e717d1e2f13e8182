package io.tessera.data.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.zip.CRC32C;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Reads stored values, {@code crc32c(4) | bytes}, wherever the version index says they are (a value
 * file or RocksDB), and verifies their checksum. An empty value is a tombstone.
 */
final class ValueReader {
  static final int CRC_BYTES = 4;

  /** A read that will use all of a value's bytes. */
  static final int WHOLE = Integer.MAX_VALUE;

  /** A read of a range that does not start at a value's first byte. */
  static final int PART = -1;

  static final long LIVE = Long.MAX_VALUE;

  private final ShardDb db;
  private final VersionIndex index;
  private final ValueFiles files;
  private final ByteBufAllocator alloc;
  private final Supplier<EpochState> state;

  /** Capacity to try first when reading a value of unknown size: the largest seen so far. */
  private volatile int valueSizeHint = 64 << 10;

  ValueReader(
      ShardDb db,
      VersionIndex index,
      ValueFiles files,
      ByteBufAllocator alloc,
      Supplier<EpochState> state) {
    this.db = db;
    this.index = index;
    this.files = files;
    this.alloc = alloc;
    this.state = state;
  }

  /** The whole newest value (crc and bytes) with its checksum verified, or null. */
  ByteBuf newest(ShardId shard) throws IOException {
    return read(shard, LIVE, WHOLE);
  }

  /**
   * The whole value (crc and bytes) of the newest version at or below {@code atEpoch}, its checksum
   * verified; null when there is none or it is a tombstone. {@code wanted}: how many of its bytes
   * from the start the caller will use ({@link #PART}: a range further in), which tells a
   * whole-unit read, kept out of the page cache, from a partial one.
   */
  ByteBuf read(ShardId shard, long atEpoch, int wanted) throws IOException {
    long current = state.get().epoch();
    ByteBuf value = atEpoch >= current ? get(shard, current, wanted) : null;
    long version = current;
    if (value == null) {
      Long newest = index.newestEpoch(shard, atEpoch);
      if (newest == null) {
        return null;
      }
      version = newest;
      value = get(shard, newest, wanted);
      if (value == null) {
        return null;
      }
    }
    if (value.readableBytes() == 0) {
      value.release();
      return null;
    }
    if (!checksumHolds(value)) {
      value.release();
      throw new CorruptShardException(shard, version);
    }
    return value;
  }

  /** Whether a stored version passes its checksum (or was replaced since a scan saw it). */
  boolean soundOrGone(ShardId shard, long epoch) throws IOException {
    ByteBuf value;
    try {
      value = get(shard, epoch, WHOLE);
    } catch (CorruptShardException lost) {
      return false;
    }
    if (value == null) {
      return true;
    }
    try {
      return checksumHolds(value);
    } finally {
      value.release();
    }
  }

  /**
   * One version's value (crc and bytes, unverified): its file's bytes, or a pooled direct buffer
   * filled from RocksDB, as the version index says; null when there is no such version.
   */
  private ByteBuf get(ShardId shard, long version, int wanted) throws IOException {
    byte[] key = ShardKey.encode(shard, version);
    byte[] entry = index.entry(key);
    while (entry != null) {
      ByteBuf value;
      try {
        value =
            VersionIndex.inFile(entry)
                ? files.read(
                    VersionIndex.fileOf(shard, version, entry),
                    (int) VersionIndex.lengthOf(entry),
                    alloc,
                    (long) CRC_BYTES + wanted >= VersionIndex.lengthOf(entry))
                : getInline(shard, version);
      } catch (NoSuchFileException gone) {
        value = null;
      }
      if (value != null) {
        return value;
      }
      byte[] now = index.entry(key);
      if (Arrays.equals(now, entry)) {
        if (VersionIndex.inFile(entry)) {
          throw new CorruptShardException(
              shard, version, "lost its value file (a crash before it was synced?)");
        }
        return null;
      }
      entry = now; // replaced while this read looked: read what replaced it
    }
    return null;
  }

  /**
   * A value kept in RocksDB into a pooled direct buffer, grown once if the first guess was too
   * small.
   */
  private ByteBuf getInline(ShardId shard, long version) throws IOException {
    ByteBuf key = alloc.directBuffer(ShardKey.LENGTH).writeBytes(ShardKey.encode(shard, version));
    try {
      int capacity = valueSizeHint;
      while (true) {
        ByteBuf value = alloc.directBuffer(capacity);
        ByteBuffer nio = value.nioBuffer(0, capacity);
        int size = db.db.get(db.shards, db.reads, key.nioBuffer(), nio);
        if (size == RocksDB.NOT_FOUND) {
          value.release();
          return null;
        }
        if (size <= capacity) {
          value.writerIndex(size);
          return value;
        }
        value.release();
        capacity = size;
        if (size > valueSizeHint) {
          valueSizeHint = size;
        }
      }
    } catch (RocksDBException e) {
      throw ShardDb.error("read", e);
    } finally {
      key.release();
    }
  }

  /** Whether a stored value ({@code crc32c | bytes}) matches the checksum it carries. */
  static boolean checksumHolds(ByteBuf value) {
    return value.readableBytes() >= CRC_BYTES
        && value.getInt(0) == crc(value, CRC_BYTES, value.readableBytes() - CRC_BYTES);
  }

  static int crc(ByteBuf buf, int index, int length) {
    CRC32C crc = new CRC32C();
    crc.update(buf.nioBuffer(index, length));
    return (int) crc.getValue();
  }
}
