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
import java.nio.charset.StandardCharsets;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Shards in one RocksDB: key {@link ShardKey}, value {@code crc32c(4) | bytes}. Values of a
 * stripe unit's size go to blob files, so compaction moves keys, not data. Two small column
 * families sit beside the shards so that a write and its bookkeeping commit in one batch:
 * {@code locks} (granted stripe locks) and {@code dirty} (the dirty-file log, key
 * {@code server id | 0 | fileId}, value the time of the first entry).
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
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions shardOptions;
  private final ColumnFamilyOptions smallOptions;
  private final RocksDB db;
  private final List<ColumnFamilyHandle> families = new ArrayList<>();
  private final ColumnFamilyHandle shards;
  private final ColumnFamilyHandle lockFamily;
  private final ColumnFamilyHandle dirtyFamily;
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
    dbOptions = new DBOptions()
        .setCreateIfMissing(true)
        .setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2)
        .setBytesPerSync(1L << 20)
        .setWalBytesPerSync(1L << 20);
    shardOptions = new ColumnFamilyOptions()
        .setEnableBlobFiles(true)
        .setMinBlobSize(32 << 10)
        .setBlobFileSize(256L << 20)
        .setEnableBlobGarbageCollection(true)
        .setWriteBufferSize(64L << 20)
        .setMaxWriteBufferNumber(4)
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setBlobCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    smallOptions = new ColumnFamilyOptions().setWriteBufferSize(4L << 20);
    try {
      db = RocksDB.open(dbOptions, dir.toString(), List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, shardOptions),
          new ColumnFamilyDescriptor("locks".getBytes(StandardCharsets.UTF_8), smallOptions),
          new ColumnFamilyDescriptor("dirty".getBytes(StandardCharsets.UTF_8), smallOptions)), families);
    } catch (RocksDBException e) {
      dbOptions.close();
      shardOptions.close();
      smallOptions.close();
      cache.close();
      throw new IOException("cannot open shard store in " + dir + ": " + e.getMessage()
          + " (is another data server using this directory?)", e);
    }
    shards = families.get(0);
    lockFamily = families.get(1);
    dirtyFamily = families.get(2);
  }

  @Override
  public void write(List<ShardWrite> writes, WriteBookkeeping book, boolean sync) throws IOException {
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
          batch.delete(shards, ShardKey.encode(w.shard(), older));
        }
        ByteBuf key = keyBuffer(w.shard(), current);
        held.add(key);
        batch.put(shards, key.nioBuffer(), value.nioBuffer());
      }
      if (book.releasedLock() != null) {
        batch.delete(lockFamily, book.releasedLock());
      }
      for (String server : book.missingServers()) {
        byte[] dirtyKey = dirtyKey(server, book.fileId());
        if (db.get(dirtyFamily, dirtyKey) == null) {
          batch.put(dirtyFamily, dirtyKey, ByteBuffer.allocate(8).putLong(System.currentTimeMillis()).array());
        }
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
        int size = db.get(shards, reads, key.nioBuffer(), nio);
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
      db.deleteRange(shards, asyncWrite, ShardKey.fileFrom(fileId, 0), ShardKey.fileFrom(fileId + 1, 0));
    } catch (RocksDBException e) {
      throw storeError("delete", e);
    }
  }

  @Override
  public void truncateFile(long fileId, long stripe, int[] keepLengths) throws IOException {
    List<ByteBuf> held = new ArrayList<>();
    try (WriteBatch batch = new WriteBatch()) {
      batch.deleteRange(shards, ShardKey.fileFrom(fileId, stripe + 1), ShardKey.fileFrom(fileId + 1, 0));
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
            batch.delete(shards, ShardKey.encode(id, newest));
            continue;
          }
          ByteBuf value = readValue(id);
          if (value != null && value.readableBytes() - CRC_BYTES > keepLengths[u]) {
            value.writerIndex(CRC_BYTES + keepLengths[u]);
            value.setInt(0, crc(value, CRC_BYTES, keepLengths[u]));
            batch.put(shards, ShardKey.encode(id, newest), ByteBufUtil.getBytes(value));
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
  public void putLock(byte[] key, byte[] record) throws IOException {
    try {
      db.put(lockFamily, asyncWrite, key, record);
    } catch (RocksDBException e) {
      throw storeError("lock", e);
    }
  }

  @Override
  public void removeLock(byte[] key) throws IOException {
    try {
      db.delete(lockFamily, asyncWrite, key);
    } catch (RocksDBException e) {
      throw storeError("unlock", e);
    }
  }

  @Override
  public List<byte[][]> locks() {
    List<byte[][]> out = new ArrayList<>();
    try (RocksIterator it = db.newIterator(lockFamily)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(new byte[][] {it.key(), it.value()});
      }
    }
    return out;
  }

  @Override
  public List<DirtyFile> dirtyFiles() {
    List<DirtyFile> out = new ArrayList<>();
    try (RocksIterator it = db.newIterator(dirtyFamily)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        byte[] k = it.key();
        int sep = k.length - 9;
        if (sep < 0 || k[sep] != 0) {
          continue;
        }
        out.add(new DirtyFile(new String(k, 0, sep, StandardCharsets.UTF_8),
            ByteBuffer.wrap(k, sep + 1, 8).getLong(), ByteBuffer.wrap(it.value()).getLong()));
      }
    }
    return out;
  }

  private static byte[] dirtyKey(String server, long fileId) {
    byte[] id = server.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(id.length + 9).put(id).put((byte) 0).putLong(fileId).array();
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
      return db.getLongProperty(shards, "rocksdb.total-sst-files-size")
          + db.getLongProperty(shards, "rocksdb.total-blob-file-size")
          + db.getLongProperty(shards, "rocksdb.cur-size-all-mem-tables");
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
    families.forEach(ColumnFamilyHandle::close);
    db.close();
    asyncWrite.close();
    syncWrite.close();
    reads.close();
    dbOptions.close();
    shardOptions.close();
    smallOptions.close();
    cache.close();
  }

  /** The epoch of the newest stored version at or below {@code maxEpoch}, or null when there is none. */
  private Long newestEpoch(ShardId shard, long maxEpoch) {
    try (RocksIterator it = db.newIterator(shards)) {
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
