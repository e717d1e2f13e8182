package io.tessera.data.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
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
 * stripe-unit's size go to blob files, so compaction moves keys, not data.
 */
public final class RocksShardStore implements ShardStore {
  static {
    RocksDB.loadLibrary();
  }

  private static final int LOCK_STRIPES = 512;
  private static final int CRC_BYTES = 4;

  private final LRUCache cache;
  private final Options options;
  private final RocksDB db;
  private final WriteOptions asyncWrite = new WriteOptions();
  private final WriteOptions syncWrite = new WriteOptions().setSync(true);
  private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];
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
    try (WriteBatch batch = new WriteBatch()) {
      long current = epoch;
      for (ShardWrite w : writes) {
        Version old = w.coversUnit() ? newestKeyOnly(w.shard()) : newest(w.shard(), Long.MAX_VALUE);
        byte[] bytes;
        if (w.coversUnit() || old == null) {
          bytes = new byte[w.offset() + w.length()];
        } else {
          bytes = Arrays.copyOf(old.data, Math.max(old.data.length, w.offset() + w.length()));
        }
        System.arraycopy(w.data(), w.dataOffset(), bytes, w.offset(), w.length());
        if (old != null && old.epoch != current) {
          // a newer epoch began since this shard was written; no snapshot keeps old versions yet
          batch.delete(ShardKey.encode(w.shard(), old.epoch));
        }
        batch.put(ShardKey.encode(w.shard(), current), seal(bytes));
      }
      db.write(sync ? syncWrite : asyncWrite, batch);
    } catch (RocksDBException e) {
      throw storeError("write", e);
    } finally {
      for (int i = stripes.length - 1; i >= 0; i--) {
        locks[stripes[i]].unlock();
      }
    }
  }

  @Override
  public boolean read(ShardId shard, int offset, int length, byte[] dst, int dstOffset) throws IOException {
    Version v = newest(shard, Long.MAX_VALUE);
    Arrays.fill(dst, dstOffset, dstOffset + length, (byte) 0);
    if (v == null) {
      return false;
    }
    int n = Math.max(0, Math.min(length, v.data.length - offset));
    if (n > 0) {
      System.arraycopy(v.data, offset, dst, dstOffset, n);
    }
    return true;
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
    try (WriteBatch batch = new WriteBatch()) {
      batch.deleteRange(ShardKey.fileFrom(fileId, stripe + 1), ShardKey.fileFrom(fileId + 1, 0));
      for (int u = 0; u < keepLengths.length; u++) {
        ShardId id = new ShardId(fileId, stripe, u);
        ReentrantLock lock = locks[lockStripe(id)];
        lock.lock();
        try {
          Version v = newest(id, Long.MAX_VALUE);
          if (v == null) {
            continue;
          }
          if (keepLengths[u] == 0) {
            batch.delete(ShardKey.encode(id, v.epoch));
          } else if (v.data.length > keepLengths[u]) {
            batch.put(ShardKey.encode(id, v.epoch), seal(Arrays.copyOf(v.data, keepLengths[u])));
          }
        } finally {
          lock.unlock();
        }
      }
      db.write(asyncWrite, batch);
    } catch (RocksDBException e) {
      throw storeError("truncate", e);
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
    options.close();
    cache.close();
  }

  private record Version(long epoch, byte[] data) {}

  /** The newest version of a shard at or below {@code maxEpoch}, checksum verified. */
  private Version newest(ShardId shard, long maxEpoch) throws IOException {
    Version key = newestKeyOnly(shard, maxEpoch);
    if (key == null) {
      return null;
    }
    try {
      byte[] raw = db.get(ShardKey.encode(shard, key.epoch));
      if (raw == null) {
        return null;
      }
      return new Version(key.epoch, unseal(shard, key.epoch, raw));
    } catch (RocksDBException e) {
      throw storeError("read", e);
    }
  }

  private Version newestKeyOnly(ShardId shard) {
    return newestKeyOnly(shard, Long.MAX_VALUE);
  }

  private Version newestKeyOnly(ShardId shard, long maxEpoch) {
    try (ReadOptions ro = new ReadOptions().setPrefixSameAsStart(false);
         RocksIterator it = db.newIterator(ro)) {
      it.seekForPrev(ShardKey.encode(shard, maxEpoch));
      if (!it.isValid()) {
        return null;
      }
      byte[] k = it.key();
      return ShardKey.sameShard(k, shard) ? new Version(ShardKey.epochOf(k), null) : null;
    }
  }

  private static byte[] seal(byte[] data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    byte[] out = new byte[CRC_BYTES + data.length];
    ByteBuffer.wrap(out).putInt((int) crc.getValue());
    System.arraycopy(data, 0, out, CRC_BYTES, data.length);
    return out;
  }

  private static byte[] unseal(ShardId shard, long epoch, byte[] raw) throws CorruptShardException {
    if (raw.length < CRC_BYTES) {
      throw new CorruptShardException(shard, epoch);
    }
    CRC32C crc = new CRC32C();
    crc.update(raw, CRC_BYTES, raw.length - CRC_BYTES);
    if ((int) crc.getValue() != ByteBuffer.wrap(raw).getInt()) {
      throw new CorruptShardException(shard, epoch);
    }
    return Arrays.copyOfRange(raw, CRC_BYTES, raw.length);
  }

  private static int lockStripe(ShardId id) {
    return Math.floorMod(id.hashCode(), LOCK_STRIPES);
  }

  private static IOException storeError(String what, RocksDBException e) {
    String status = e.getStatus() == null ? e.getMessage() : e.getStatus().getCodeString() + ": " + e.getMessage();
    return new IOException("shard store " + what + " failed: " + status, e);
  }
}
