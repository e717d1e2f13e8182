package io.tessera.data.store;

import io.tessera.common.platform.UnpackedLibraries;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactRangeOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * The one RocksDB of a shard store with its column families: the shards (default family, tuned for
 * large values) and the small families beside them, so a write and its bookkeeping commit in one
 * batch ({@code locks}, {@code dirty}, {@code versions}, {@code fences}).
 */
final class ShardDb implements AutoCloseable {
  static {
    RocksDB.loadLibrary();
    UnpackedLibraries.removeRocksDbCopy();
  }

  /** Write-ahead log kept at most (beyond what the shard memtables still need). */
  static final long MAX_LOG_BYTES = 256L << 20;

  final RocksDB db;
  final ColumnFamilyHandle shards;
  final ColumnFamilyHandle locks;
  final ColumnFamilyHandle dirty;
  final ColumnFamilyHandle versions;
  final ColumnFamilyHandle fences;
  final WriteOptions asyncWrite = new WriteOptions();
  final WriteOptions syncWrite = new WriteOptions().setSync(true);
  final ReadOptions reads = new ReadOptions().setVerifyChecksums(false).setFillCache(false);

  /** Whether the store predates the version index (it has shards but the index must be built). */
  final boolean indexMissing;

  private final LRUCache cache = new LRUCache(64L << 20);
  private final BackgroundErrorLog errorLog;
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions shardOptions;
  private final ColumnFamilyOptions smallOptions;
  private final List<ColumnFamilyHandle> families = new ArrayList<>();

  ShardDb(Path dir, int minBlobValue) throws IOException {
    Files.createDirectories(dir);
    // Not paranoid: a compaction whose blob garbage collection meets a corrupt blob record
    // would otherwise stop every write until a restart. Every value carries our CRC32C, checked
    // on each read and by the scrubber, and a corrupt shard is rebuilt.
    errorLog = new BackgroundErrorLog(dir.toString());
    dbOptions =
        new DBOptions()
            .setListeners(List.of(errorLog))
            .setParanoidChecks(false)
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(true)
            .setMaxBackgroundJobs(2)
            .setBytesPerSync(1L << 20)
            .setWalBytesPerSync(1L << 20)
            // a log file goes once every family with changes in it has flushed; the small families
            // rarely fill a memtable, so without a bound every shard byte stayed in the log too
            .setMaxTotalWalSize(MAX_LOG_BYTES);
    shardOptions =
        new ColumnFamilyOptions()
            .setEnableBlobFiles(true)
            .setMinBlobSize(minBlobValue)
            .setBlobFileSize(256L << 20)
            .setEnableBlobGarbageCollection(true)
            // overwrites leave older blob files mostly garbage while few table files change:
            // compact the tables that point into them once half of such a file is dead
            .setBlobGarbageCollectionForceThreshold(0.5)
            .setWriteBufferSize(64L << 20)
            .setMaxWriteBufferNumber(4)
            .setCompressionType(CompressionType.NO_COMPRESSION)
            .setBlobCompressionType(CompressionType.NO_COMPRESSION)
            .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    smallOptions = new ColumnFamilyOptions().setWriteBufferSize(4L << 20);
    try {
      indexMissing = hasShardsWithoutIndex(dir);
      db =
          RocksDB.open(
              dbOptions,
              dir.toString(),
              List.of(
                  new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, shardOptions),
                  family("locks"),
                  family("dirty"),
                  family("versions"),
                  family("fences")),
              families);
    } catch (RocksDBException e) {
      closeOptions();
      throw new IOException(
          "cannot open shard store in "
              + dir
              + ": "
              + e.getMessage()
              + " (is another data server using this directory?)",
          e);
    }
    shards = families.get(0);
    locks = families.get(1);
    dirty = families.get(2);
    versions = families.get(3);
    fences = families.get(4);
  }

  private ColumnFamilyDescriptor family(String name) {
    return new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), smallOptions);
  }

  /** A store written before the version index existed (it has shards but no index family). */
  private static boolean hasShardsWithoutIndex(Path dir) throws RocksDBException {
    if (!Files.exists(dir.resolve("CURRENT"))) {
      return false;
    }
    try (Options o = new Options()) {
      return RocksDB.listColumnFamilies(o, dir.toString()).stream()
          .noneMatch(n -> new String(n, StandardCharsets.UTF_8).equals("versions"));
    }
  }

  /** Bytes RocksDB holds for the shards: table files, blob files and memtables. */
  long shardBytes() throws RocksDBException {
    return db.getLongProperty(shards, "rocksdb.total-sst-files-size")
        + db.getLongProperty(shards, "rocksdb.total-blob-file-size")
        + db.getLongProperty(shards, "rocksdb.cur-size-all-mem-tables");
  }

  void flushWal() throws RocksDBException {
    db.flushWal(true);
  }

  /** What was written lands in table and blob files (tests use it to reach them). */
  void flushShards() throws RocksDBException {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush, shards);
    }
  }

  /**
   * Compacts every table file of the shards, with the blob garbage collection that comes with it.
   */
  void compactShards() throws RocksDBException {
    try (CompactRangeOptions all =
        new CompactRangeOptions()
            .setBottommostLevelCompaction(CompactRangeOptions.BottommostLevelCompaction.kForce)) {
      db.compactRange(shards, null, null, all);
    }
  }

  /** Flushes every family (a clean stop leaves no log to replay at the next start), then closes. */
  @Override
  public void close() {
    try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      db.flush(flush, families);
    } catch (RocksDBException e) {
      try {
        db.flushWal(true);
      } catch (RocksDBException again) {
        // closing anyway: the WAL holds what was written
      }
    }
    families.forEach(ColumnFamilyHandle::close);
    db.close();
    asyncWrite.close();
    syncWrite.close();
    reads.close();
    closeOptions();
  }

  private void closeOptions() {
    dbOptions.close();
    errorLog.close();
    shardOptions.close();
    smallOptions.close();
    cache.close();
  }

  static IOException error(String what, RocksDBException e) {
    String status =
        e.getStatus() == null
            ? e.getMessage()
            : e.getStatus().getCodeString() + ": " + e.getMessage();
    return new IOException("shard store " + what + " failed: " + status, e);
  }
}
