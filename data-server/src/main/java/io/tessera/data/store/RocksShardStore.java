package io.tessera.data.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.CompressionType;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Shards in one RocksDB: key {@link ShardKey}, value {@code crc32c(4) | bytes}. Values of a
 * stripe unit's size go to blob files, so compaction moves keys, not data.
 *
 * <p>Bytes move through pooled direct buffers: one copy from the network buffer into the
 * value on write, none on read (the reply is a slice of the value RocksDB filled). RocksDB's
 * own checksum of blob reads is skipped because every value carries our CRC32C, which is
 * verified on every read.
 */
public final class RocksShardStore implements ShardStore {
  static {
    RocksDB.loadLibrary();
  }

  private static final int LOCK_STRIPES = 512;
  private static final int CRC_BYTES = 4;

  private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
  private final LRUCache cache;
  private final Options options;
  private final RocksDB db;
  private final WriteOptions asyncWrite = new WriteOptions();
  private final WriteOptions syncWrite = new WriteOptions().setSync(true);
  private final ReadOptions reads = new ReadOptions().setVerifyChecksums(false).setFillCache(false);
  private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];
  /** Capacity to try first when reading a value of unknown size: the largest seen so far. */
  private volatile int valueSizeHint = 64 << 10;
  private volatile long epoch;

  public RocksShardStore(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (int i = 0; i < LOCK_STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
    cache = new LRUCache(64L << 20);
    options = new Options()
        .setCreateIfMissing(true)
        .setEnableBlobFiles(true)
        .setMinBlobSize(32 << 10)
        .setBlobFileSize(256L << 20)
        .setEnableBlobGarbageCollection(true)
        .setWriteBufferSize(64L << 20)
        .setMaxWriteBufferNumber(4)
        .setMaxBackgroundJobs(2)
        .setBytesPerSync(1L << 20)
        .setWalBytesPerSync(1L << 20)
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setBlobCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    try {
      db = RocksDB.open(options, dir.toString());
    } catch (RocksDBException e) {
      options.close();
      cache.close();
      throw new IOException("cannot open shard store in " + dir + ": " + e.getMessage()
          + " (is another data server using this directory?)", e);
    }
  }

  @Override
  public void write(List<ShardWrite> writes, boolean sync) throws IOException {
    int[] stripes = writes.stream().mapToInt(w -> lockStripe(w.shard())).distinct().sorted().toArray();
    for (int s : stripes) {
      locks[s].lock();
    }
    List<ByteBuf> held = new ArrayList<>();
    try (WriteBatch batch = new WriteBatch()) {
      long current = epoch;
      for (ShardWrite w : writes) {
        // before the first snapshot there is no older epoch whose version could linger
        Long older = current > 0 ? newestEpoch(w.shard(), Long.MAX_VALUE) : null;
        ByteBuf value;
        if (w.coversUnit()) {
          value = alloc.directBuffer(CRC_BYTES + w.offset() + w.length());
          value.writeInt(0).writeZero(w.offset()).writeBytes(w.data(), w.data().readerIndex(), w.length());
        } else {
          value = overlay(w);
        }
        held.add(value);
        value.setInt(0, crc(value, CRC_BYTES, value.readableBytes() - CRC_BYTES));
        if (older != null && older != current) {
          // a newer epoch began since this shard was written; no snapshot keeps old versions yet
          batch.delete(ShardKey.encode(w.shard(), older));
        }
        ByteBuf key = keyBuffer(w.shard(), current);
        held.add(key);
        batch.put(key.nioBuffer(), value.nioBuffer());
      }
      db.write(sync ? syncWrite : asyncWrite, batch);
    } catch (RocksDBException e) {
      throw storeError("write", e);
    } finally {
      held.forEach(ByteBuf::release);
      for (int i = stripes.length - 1; i >= 0; i--) {
        locks[stripes[i]].unlock();
      }
    }
  }

  /** The new value of a partially written unit: the stored bytes with the write laid over them. */
  private ByteBuf overlay(ShardWrite w) throws IOException {
    ByteBuf old = readValue(w.shard());
    int oldLength = old == null ? 0 : old.readableBytes() - CRC_BYTES;
    int length = Math.max(oldLength, w.offset() + w.length());
    ByteBuf value = alloc.directBuffer(CRC_BYTES + length);
    value.writeInt(0);
    if (old != null) {
      value.writeBytes(old, CRC_BYTES, oldLength);
      old.release();
    }
    value.writerIndex(CRC_BYTES + length);
    if (oldLength < w.offset()) {
      value.setZero(CRC_BYTES + oldLength, w.offset() - oldLength);
    }
    value.setBytes(CRC_BYTES + w.offset(), w.data(), w.data().readerIndex(), w.length());
    return value;
  }

  @Override
  public ByteBuf read(ShardId shard, int offset, int length) throws IOException {
    ByteBuf value = readValue(shard);
    if (value == null) {
      return null;
    }
    int stored = value.readableBytes() - CRC_BYTES;
    int n = Math.max(0, Math.min(length, stored - offset));
    ByteBuf out = value.retainedSlice(CRC_BYTES + Math.min(offset, stored), n);
    value.release();
    return out;
  }

  /** The whole newest value (crc and bytes) with its checksum verified, or null. */
  private ByteBuf readValue(ShardId shard) throws IOException {
    long current = epoch;
    ByteBuf value = get(shard, current);
    long version = current;
    if (value == null) {
      Long newest = newestEpoch(shard, Long.MAX_VALUE);
      if (newest == null) {
        return null;
      }
      version = newest;
      value = get(shard, newest);
      if (value == null) {
        return null;
      }
    }
    if (value.readableBytes() < CRC_BYTES
        || value.getInt(0) != crc(value, CRC_BYTES, value.readableBytes() - CRC_BYTES)) {
      value.release();
      throw new CorruptShardException(shard, version);
    }
    return value;
  }

  /** One value into a pooled direct buffer, grown once if the first guess was too small. */
  private ByteBuf get(ShardId shard, long version) throws IOException {
    ByteBuf key = keyBuffer(shard, version);
    try {
      int capacity = valueSizeHint;
      while (true) {
        ByteBuf value = alloc.directBuffer(capacity);
        ByteBuffer nio = value.nioBuffer(0, capacity);
        int size = db.get(reads, key.nioBuffer(), nio);
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
      throw storeError("read", e);
    } finally {
      key.release();
    }
  }

  @Override
  public void deleteFile(long fileId) throws IOException {
    try {
      db.deleteRange(asyncWrite, ShardKey.fileFrom(fileId, 0), ShardKey.fileFrom(fileId + 1, 0));
    } catch (RocksDBException e) {
      throw storeError("delete", e);
    }
  }

  @Override
  public void truncateFile(long fileId, long stripe, int[] keepLengths) throws IOException {
    List<ByteBuf> held = new ArrayList<>();
    try (WriteBatch batch = new WriteBatch()) {
      batch.deleteRange(ShardKey.fileFrom(fileId, stripe + 1), ShardKey.fileFrom(fileId + 1, 0));
      for (int u = 0; u < keepLengths.length; u++) {
        ShardId id = new ShardId(fileId, stripe, u);
        ReentrantLock lock = locks[lockStripe(id)];
        lock.lock();
        try {
          Long newest = newestEpoch(id, Long.MAX_VALUE);
          if (newest == null) {
            continue;
          }
          if (keepLengths[u] == 0) {
            batch.delete(ShardKey.encode(id, newest));
            continue;
          }
          ByteBuf value = readValue(id);
          if (value != null && value.readableBytes() - CRC_BYTES > keepLengths[u]) {
            value.writerIndex(CRC_BYTES + keepLengths[u]);
            value.setInt(0, crc(value, CRC_BYTES, keepLengths[u]));
            batch.put(ShardKey.encode(id, newest), ByteBufUtil.getBytes(value));
          }
          if (value != null) {
            held.add(value);
          }
        } finally {
          lock.unlock();
        }
      }
      db.write(asyncWrite, batch);
    } catch (RocksDBException e) {
      throw storeError("truncate", e);
    } finally {
      held.forEach(ByteBuf::release);
    }
  }

  @Override
  public void sync() throws IOException {
    try {
      db.flushWal(true);
    } catch (RocksDBException e) {
      throw storeError("sync", e);
    }
  }

  @Override
  public long epoch() {
    return epoch;
  }

  @Override
  public void setEpoch(long epoch) {
    this.epoch = epoch;
  }

  @Override
  public long usedBytes() {
    try {
      return db.getLongProperty("rocksdb.total-sst-files-size")
          + db.getLongProperty("rocksdb.total-blob-file-size")
          + db.getLongProperty("rocksdb.cur-size-all-mem-tables");
    } catch (RocksDBException e) {
      return 0;
    }
  }

  @Override
  public void close() {
    try {
      db.flushWal(true);
    } catch (RocksDBException e) {
      // closing anyway: the WAL holds what was written
    }
    db.close();
    asyncWrite.close();
    syncWrite.close();
    reads.close();
    options.close();
    cache.close();
  }

  /** The epoch of the newest stored version at or below {@code maxEpoch}, or null when there is none. */
  private Long newestEpoch(ShardId shard, long maxEpoch) {
    try (RocksIterator it = db.newIterator()) {
      it.seekForPrev(ShardKey.encode(shard, maxEpoch));
      if (!it.isValid()) {
        return null;
      }
      byte[] k = it.key();
      return ShardKey.sameShard(k, shard) ? ShardKey.epochOf(k) : null;
    }
  }

  private ByteBuf keyBuffer(ShardId shard, long version) {
    ByteBuf key = alloc.directBuffer(ShardKey.LENGTH);
    key.writeBytes(ShardKey.encode(shard, version));
    return key;
  }

  private static int crc(ByteBuf buf, int index, int length) {
    CRC32C crc = new CRC32C();
    crc.update(buf.nioBuffer(index, length));
    return (int) crc.getValue();
  }

  private static int lockStripe(ShardId id) {
    return Math.floorMod(id.hashCode(), LOCK_STRIPES);
  }

  private static IOException storeError(String what, RocksDBException e) {
    String status = e.getStatus() == null ? e.getMessage() : e.getStatus().getCodeString() + ": " + e.getMessage();
    return new IOException("shard store " + what + " failed: " + status, e);
  }
}
