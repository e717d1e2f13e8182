package io.tessera.data.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.tessera.common.platform.UnpackedLibraries;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shards in one RocksDB: key {@link ShardKey}, value {@code crc32c(4) | bytes}; an empty
 * value is a tombstone (the shard was truncated away or its file removed at that epoch, while
 * a snapshot still sees an older version). Values of at least {@link #MIN_FILE_VALUE} bytes (a
 * stripe unit's size) are kept in {@link ValueFiles} instead, one file per version, which the
 * version index names; small ones stay in the default column family. Small column families sit
 * beside the shards so that a write and its bookkeeping commit in one batch: {@code versions}
 * (every shard key with its value's length and, for a value in a file, the file's generation:
 * reads find their value through it, and scans never touch values), {@code locks}
 * (granted stripe locks) and {@code dirty} (the dirty-file log, key
 * {@code server id | 0 | fileId}, value the time of the first entry); {@code fences} holds the
 * {@link LayoutFences} of files whose shards recovery moved between servers.
 *
 * <p>Versions follow {@link EpochState}'s rule: a write at epoch {@code C} replaces the
 * shard's newest version unless a retained snapshot still sees it; reads at a snapshot seek
 * the newest version at or below it; {@link #collectGarbage()} drops versions no snapshot sees
 * any more.
 *
 * <p>A unit-sized write goes from the network buffers to its file in one gathering write (its
 * CRC32C computed over them in place); a read maps the file and replies with a slice of the
 * mapping. Every value carries our CRC32C, verified on every read.
 */
public final class RocksShardStore implements ShardStore {
  private static final Logger LOG = LoggerFactory.getLogger(RocksShardStore.class);
  static {
    RocksDB.loadLibrary();
    UnpackedLibraries.removeRocksDbCopy();
  }

  private static final int LOCK_STRIPES = 512;
  private static final int CRC_BYTES = 4;
  /**
   * A deleted file with more versions than this goes in one range tombstone, a smaller one in
   * point tombstones: every read and iterator of a memtable sorts its range tombstones again, so
   * a few thousand removed small files made an idle server burn a core.
   */
  private static final int RANGE_DELETE_FROM = 1024;
  private static final long LIVE = Long.MAX_VALUE;
  /** A read that will use all of a value's bytes (see {@link #readValue(ShardId, long, int)}). */
  private static final int WHOLE = Integer.MAX_VALUE;
  /** A read of a range that does not start at a value's first byte. */
  private static final int PART = -1;
  /** Write-ahead log kept at most (beyond what the shard memtables still need). */
  static final long MAX_LOG_BYTES = 256L << 20;
  /**
   * Values at least this large (crc included) go to their own file. RocksDB's blob files took
   * values from this size before value files existed; stores written then still read them.
   */
  public static final int MIN_FILE_VALUE = 32 << 10;
  /** {@link #RocksShardStore(Path, int)}'s threshold that keeps every value in RocksDB. */
  public static final int NO_VALUE_FILES = Integer.MAX_VALUE;
  private static final int INLINE_ENTRY = 4;
  private static final int FILE_ENTRY = 12;

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
  private final ColumnFamilyHandle versionFamily;
  private final DirtyLog dirty;
  private final LayoutFences fences;
  private final ValueFiles files;
  private final int minFileValue;
  private final WriteOptions asyncWrite = new WriteOptions();
  private final WriteOptions syncWrite = new WriteOptions().setSync(true);
  private final BackgroundErrorLog errorLog;
  private final ReadOptions reads = new ReadOptions().setVerifyChecksums(false).setFillCache(false);
  private final ReentrantLock[] locks = new ReentrantLock[LOCK_STRIPES];
  /** Capacity to try first when reading a value of unknown size: the largest seen so far. */
  private volatile int valueSizeHint = 64 << 10;
  private volatile EpochState state = EpochState.INITIAL;

  public RocksShardStore(Path dir) throws IOException {
    this(dir, MIN_FILE_VALUE);
  }

  /**
   * A store whose new values of {@code minFileValue} bytes or more (checksum included) go to
   * value files ({@link #NO_VALUE_FILES}: none); values already stored are read wherever they are.
   */
  public RocksShardStore(Path dir, int minFileValue) throws IOException {
    this(dir, minFileValue, ValueFileOptions.DEFAULTS);
  }

  /**
   * Like {@link #RocksShardStore(Path, int)}; {@code options}: which value file writes and reads
   * bypass the page cache where the file system allows it, and how many bytes of removed value
   * files are kept for reuse (see {@link ValueFiles}).
   */
  public RocksShardStore(Path dir, int minFileValue, ValueFileOptions options) throws IOException {
    Files.createDirectories(dir);
    this.minFileValue = minFileValue;
    for (int i = 0; i < LOCK_STRIPES; i++) {
      locks[i] = new ReentrantLock();
    }
    cache = new LRUCache(64L << 20);
    // Not paranoid: a compaction whose blob garbage collection meets a corrupt blob record (a
    // flipped bit on disk) would otherwise stop every write to this server until a restart, and
    // the next compaction would stop it again. Every value carries our CRC32C, checked on each
    // read and by the scrubber, and a corrupt shard is rebuilt; a failed compaction is retried.
    errorLog = new BackgroundErrorLog(dir.toString());
    dbOptions = new DBOptions()
        .setListeners(List.of(errorLog))
        .setParanoidChecks(false)
        .setCreateIfMissing(true)
        .setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2)
        .setBytesPerSync(1L << 20)
        .setWalBytesPerSync(1L << 20)
        // A log file is deleted only once every family with changes in it has flushed. The small
        // families (versions, locks, dirty logs) change with every write but rarely fill a
        // memtable, so without a bound every shard byte stayed on disk twice, in the log too:
        // 24 GB of logs for 1.5 GB of shards after a minute of overwrites on 9 servers.
        .setMaxTotalWalSize(MAX_LOG_BYTES);
    shardOptions = new ColumnFamilyOptions()
        .setEnableBlobFiles(true)
        .setMinBlobSize(MIN_FILE_VALUE)
        .setBlobFileSize(256L << 20)
        .setEnableBlobGarbageCollection(true)
        // overwrites leave the older blob files mostly garbage while few table files change:
        // compact the tables that point into them once half of such a file is dead
        .setBlobGarbageCollectionForceThreshold(0.5)
        .setWriteBufferSize(64L << 20)
        .setMaxWriteBufferNumber(4)
        .setCompressionType(CompressionType.NO_COMPRESSION)
        .setBlobCompressionType(CompressionType.NO_COMPRESSION)
        .setTableFormatConfig(new BlockBasedTableConfig().setBlockCache(cache));
    smallOptions = new ColumnFamilyOptions().setWriteBufferSize(4L << 20);
    boolean indexMissing;
    try {
      indexMissing = hasShardsWithoutIndex(dir);
      db = RocksDB.open(dbOptions, dir.toString(), List.of(
          new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, shardOptions),
          new ColumnFamilyDescriptor("locks".getBytes(StandardCharsets.UTF_8), smallOptions),
          new ColumnFamilyDescriptor("dirty".getBytes(StandardCharsets.UTF_8), smallOptions),
          new ColumnFamilyDescriptor("versions".getBytes(StandardCharsets.UTF_8), smallOptions),
          new ColumnFamilyDescriptor("fences".getBytes(StandardCharsets.UTF_8), smallOptions)), families);
    } catch (RocksDBException e) {
      dbOptions.close();
      errorLog.close();
      shardOptions.close();
      smallOptions.close();
      cache.close();
      throw new IOException("cannot open shard store in " + dir + ": " + e.getMessage()
          + " (is another data server using this directory?)", e);
    }
    shards = families.get(0);
    lockFamily = families.get(1);
    dirtyFamily = families.get(2);
    versionFamily = families.get(3);
    dirty = new DirtyLog(db, dirtyFamily);
    fences = new LayoutFences(db, families.get(4));
    if (indexMissing) {
      rebuildVersionIndex();
    }
    files = new ValueFiles(dir.resolve("values"), options);
    files.sweep(this::names);
  }

  /** Whether the version index names this value file (at start: the others are left over). */
  private boolean names(ValueFiles.Ref ref) {
    try {
      byte[] entry = db.get(versionFamily, ShardKey.encode(ref.shard(), ref.epoch()));
      return entry != null && entry.length == FILE_ENTRY && generationOf(entry) == ref.generation();
    } catch (RocksDBException e) {
      return true;   // keep what cannot be checked
    }
  }

  /** A store written before the version index existed (it has shards but no index family). */
  private static boolean hasShardsWithoutIndex(Path dir) throws RocksDBException {
    if (!Files.exists(dir.resolve("CURRENT"))) {
      return false;
    }
    try (org.rocksdb.Options o = new org.rocksdb.Options()) {
      return RocksDB.listColumnFamilies(o, dir.toString()).stream()
          .noneMatch(n -> new String(n, StandardCharsets.UTF_8).equals("versions"));
    }
  }

  private void rebuildVersionIndex() throws IOException {
    try (RocksIterator it = db.newIterator(shards); WriteBatch batch = new WriteBatch()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        batch.put(versionFamily, it.key(), lengthValue(it.value().length));
      }
      db.write(asyncWrite, batch);
    } catch (RocksDBException e) {
      throw storeError("version index rebuild", e);
    }
  }

  @Override
  public void write(List<ShardWrite> writes, WriteBookkeeping book, long epoch, boolean sync) throws IOException {
    int[] stripes = writes.stream().mapToInt(w -> lockStripe(w.shard())).distinct().sorted().toArray();
    for (int s : stripes) {
      locks[s].lock();
    }
    List<ByteBuf> held = new ArrayList<>();
    FileChanges changes = new FileChanges();
    try (WriteBatch batch = new WriteBatch()) {
      EpochState now = state;
      for (ShardWrite w : writes) {
        long current = epoch == CURRENT_EPOCH ? now.epoch() : epoch;
        // before the first snapshot there is no older epoch whose version could linger
        Long older = current > 0 || now.epoch() > 0 ? newestEpoch(w.shard(), Long.MAX_VALUE) : null;
        if (older != null && older > current) {
          if (epoch != CURRENT_EPOCH) {
            throw new IllegalArgumentException("shard " + w.shard() + " has a version at epoch " + older
                + ", newer than the write's epoch " + epoch);
          }
          current = older;   // a writer stamped it past this server's epoch: a snapshot was committed
        }
        if (w.hole()) {
          supersede(batch, w.shard(), current, now, null, changes);
          continue;
        }
        // stamped past this server's epoch: a snapshot at its epoch was committed that the
        // retained list here does not name yet, and it sees every older version
        boolean keepOlder = current > now.epoch();
        if (older != null && older != current && !keepOlder && !now.keeps(older, current)) {
          deleteVersion(batch, w.shard(), older, changes);
        }
        putVersion(batch, w.shard(), current, valueOf(w, held), sync, w.pastCache(), changes);
      }
      if (book.releasedLock() != null) {
        batch.delete(lockFamily, book.releasedLock());
      }
      Runnable remember = book.missingServers().isEmpty() ? null
          : dirty.record(batch, book.fileId(), book.missingServers(), book.staleMarked());
      db.write(sync ? syncWrite : asyncWrite, batch);
      changes.committed();
      if (remember != null) {
        remember.run();
      }
    } catch (RocksDBException e) {
      throw storeError("write", e);
    } finally {
      changes.abandonUncommitted();
      held.forEach(ByteBuf::release);
      for (int i = stripes.length - 1; i >= 0; i--) {
        locks[stripes[i]].unlock();
      }
    }
    removeIfDeletedMeanwhile(writes);
  }

  /**
   * A write admitted before its file was deleted here that committed after the delete looked
   * for the file's shards: nobody would reclaim what it stored, so it goes now. (The write is
   * still answered as done: its file is gone either way.)
   */
  private void removeIfDeletedMeanwhile(List<ShardWrite> writes) throws IOException {
    long checked = -1;
    for (ShardWrite w : writes) {
      long fileId = w.shard().fileId();
      if (fileId == checked) {
        continue;
      }
      checked = fileId;
      boolean deleted;
      try {
        deleted = fences.deleted(fileId);
      } catch (RocksDBException e) {
        throw storeError("write", e);
      }
      if (deleted) {
        LOG.info("A write to file {} arrived as the file was deleted here; its shards were removed again", fileId);
        removeShards(fileId);
      }
    }
  }

  /**
   * The value a write stores, {@code crc32c | bytes}, as buffers in order: a unit-sized write's
   * own network buffers behind its checksum (nothing copied), a small or partial one in a buffer
   * of its own (added to {@code held}).
   */
  private ByteBuffer[] valueOf(ShardWrite w, List<ByteBuf> held) throws IOException {
    int length = CRC_BYTES + w.offset() + w.length();
    if (w.coversUnit() && length >= minFileValue) {
      ByteBuffer[] data = w.data().nioBuffers(w.data().readerIndex(), w.length());
      ByteBuffer[] parts = new ByteBuffer[data.length + (w.offset() > 0 ? 2 : 1)];
      CRC32C crc = new CRC32C();
      int i = 1;
      if (w.offset() > 0) {
        parts[i] = ByteBuffer.allocate(w.offset());
        crc.update(parts[i].duplicate());
        i++;
      }
      for (ByteBuffer d : data) {
        crc.update(d.duplicate());
        parts[i++] = d;
      }
      parts[0] = ByteBuffer.allocate(CRC_BYTES).putInt(0, (int) crc.getValue());
      return parts;
    }
    ByteBuf value;
    if (w.coversUnit()) {
      value = alloc.directBuffer(length);
      value.writeInt(0).writeZero(w.offset()).writeBytes(w.data(), w.data().readerIndex(), w.length());
    } else {
      value = overlay(w);
    }
    held.add(value);
    value.setInt(0, crc(value, CRC_BYTES, value.readableBytes() - CRC_BYTES));
    return new ByteBuffer[] {value.nioBuffer()};
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
  public ByteBuf read(ShardId shard, int offset, int length, long atEpoch) throws IOException {
    ByteBuf value = readValue(shard, atEpoch, offset == 0 ? length : PART);
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
    return readValue(shard, LIVE, WHOLE);
  }

  /**
   * The whole value (crc and bytes) of the newest version at or below {@code atEpoch}, its
   * checksum verified; null when there is none or it is a tombstone. {@code wanted}: how many of
   * its bytes from the start the caller will use ({@link #PART}: a range further in), which tells
   * a whole-unit read, kept out of the page cache, from a partial one.
   */
  private ByteBuf readValue(ShardId shard, long atEpoch, int wanted) throws IOException {
    long current = state.epoch();
    ByteBuf value = atEpoch >= current ? get(shard, current, wanted) : null;
    long version = current;
    if (value == null) {
      Long newest = newestEpoch(shard, atEpoch);
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

  /**
   * One version's value (crc and bytes, unverified): its file's bytes, or a pooled direct buffer
   * filled from RocksDB, as the version index says; null when there is no such version. {@code
   * wanted}: as for {@link #readValue(ShardId, long, int)}.
   */
  private ByteBuf get(ShardId shard, long version, int wanted) throws IOException {
    byte[] key = ShardKey.encode(shard, version);
    byte[] entry = indexEntry(key);
    while (entry != null) {
      ByteBuf value;
      try {
        value = entry.length == FILE_ENTRY
            ? files.read(new ValueFiles.Ref(shard, version, generationOf(entry)), (int) lengthOf(entry), alloc,
                (long) CRC_BYTES + wanted >= lengthOf(entry))
            : getInline(shard, version);
      } catch (java.nio.file.NoSuchFileException gone) {
        value = null;
      }
      if (value != null) {
        return value;
      }
      byte[] now = indexEntry(key);
      if (java.util.Arrays.equals(now, entry)) {
        if (entry.length == FILE_ENTRY) {
          throw new CorruptShardException(shard, version, "lost its value file (a crash before it was synced?)");
        }
        return null;
      }
      entry = now;    // replaced while this read looked: read what replaced it
    }
    return null;
  }

  private byte[] indexEntry(byte[] key) throws IOException {
    try {
      return db.get(versionFamily, key);
    } catch (RocksDBException e) {
      throw storeError("read", e);
    }
  }

  /** A value kept in RocksDB into a pooled direct buffer, grown once if the first guess was too small. */
  private ByteBuf getInline(ShardId shard, long version) throws IOException {
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
      // first: a write that commits after the look below finds the mark and removes itself
      fences.raise(fileId, LayoutFences.DELETED, asyncWrite);
    } catch (RocksDBException e) {
      throw storeError("delete", e);
    }
    removeShards(fileId);
  }

  @Override
  public void dropCopy(long fileId) throws IOException {
    removeShards(fileId);
  }

  /** Removes every shard of a file (live ones only, where snapshots may still see it). */
  private void removeShards(long fileId) throws IOException {
    EpochState now = state;
    FileChanges changes = new FileChanges();
    if (!now.hasSnapshots()) {
      FileVersions versions = versionsOf(fileId);
      if (versions.keys().isEmpty()) {
        return;   // nothing of it here (an empty file, or a server its data never reached)
      }
      try (WriteBatch batch = new WriteBatch()) {
        versions.valueFiles().forEach(changes::obsolete);
        if (versions.keys().size() > RANGE_DELETE_FROM) {
          batch.deleteRange(shards, ShardKey.fileFrom(fileId, 0), ShardKey.fileFrom(fileId + 1, 0));
          batch.deleteRange(versionFamily, ShardKey.fileFrom(fileId, 0), ShardKey.fileFrom(fileId + 1, 0));
        } else {
          for (byte[] key : versions.keys()) {
            batch.delete(shards, key);
            batch.delete(versionFamily, key);
          }
        }
        db.write(asyncWrite, batch);
        changes.committed();
      } catch (RocksDBException e) {
        throw storeError("delete", e);
      }
      return;
    }
    // snapshots may still see the file: its shards end in tombstones, older versions stay
    try (WriteBatch batch = new WriteBatch()) {
      for (ShardId id : shardsOf(fileId, 0)) {
        withShardLock(id, () -> supersede(batch, id, now.epoch(), now, null, changes));
      }
      db.write(asyncWrite, batch);
      changes.committed();
    } catch (RocksDBException e) {
      throw storeError("delete", e);
    }
  }

  /** Every version key of a file, and the value files among them. */
  private record FileVersions(List<byte[]> keys, List<ValueFiles.Ref> valueFiles) {}

  /**
   * The versions of a file, from the version index. A write that commits between this look and
   * the delete removes its version itself ({@link #write}).
   */
  private FileVersions versionsOf(long fileId) {
    List<byte[]> keys = new ArrayList<>();
    List<ValueFiles.Ref> files = new ArrayList<>();
    byte[] end = ShardKey.fileFrom(fileId + 1, 0);
    try (RocksIterator it = db.newIterator(versionFamily)) {
      for (it.seek(ShardKey.fileFrom(fileId, 0)); it.isValid(); it.next()) {
        byte[] k = it.key();
        if (java.util.Arrays.compareUnsigned(k, end) >= 0) {
          break;
        }
        keys.add(k);
        byte[] entry = it.value();
        if (entry.length == FILE_ENTRY) {
          files.add(new ValueFiles.Ref(ShardKey.shardOf(k), ShardKey.epochOf(k), generationOf(entry)));
        }
      }
    }
    return new FileVersions(keys, files);
  }

  @Override
  public void truncateFile(long fileId, long stripe, int[] keepLengths, WriteBookkeeping book) throws IOException {
    EpochState now = state;
    List<ByteBuf> held = new ArrayList<>();
    FileChanges changes = new FileChanges();
    try (WriteBatch batch = new WriteBatch()) {
      for (ShardId id : shardsOf(fileId, stripe)) {
        int keep = id.stripe() > stripe || id.unit() >= keepLengths.length ? 0 : keepLengths[id.unit()];
        withShardLock(id, () -> {
          if (keep == 0) {
            supersede(batch, id, now.epoch(), now, null, changes);
            return;
          }
          ByteBuf value;
          try {
            value = readValue(id);
          } catch (CorruptShardException e) {
            // left as it is: still corrupt, so still read around and rewritten by recovery (the
            // rebuild that truncates this server's copy first among them), never cut into a
            // value that would pass its checksum
            LOG.warn("Truncate of file {} left shard {} as it is: {}", fileId, id, e.getMessage());
            return;
          }
          if (value == null) {
            return;
          }
          held.add(value);
          if (value.readableBytes() - CRC_BYTES > keep) {
            value.writerIndex(CRC_BYTES + keep);
            value.setInt(0, crc(value, CRC_BYTES, keep));
            supersede(batch, id, now.epoch(), now, value.nioBuffer(), changes);
          }
        });
      }
      if (book.releasedLock() != null) {
        batch.delete(lockFamily, book.releasedLock());
      }
      Runnable remember = book.missingServers().isEmpty() ? null
          : dirty.record(batch, fileId, book.missingServers(), book.staleMarked());
      db.write(asyncWrite, batch);
      changes.committed();
      if (remember != null) {
        remember.run();
      }
    } catch (RocksDBException e) {
      throw storeError("truncate", e);
    } finally {
      changes.abandonUncommitted();
      held.forEach(ByteBuf::release);
    }
  }

  /**
   * Replaces a shard's live version with {@code value} (null: a tombstone) at {@code epoch},
   * keeping the old version if a snapshot sees it (or may: an epoch past this server's is a
   * snapshot it has not heard of); a tombstone is only written when an older version remains to
   * be hidden.
   */
  private void supersede(WriteBatch batch, ShardId id, long epoch, EpochState now, ByteBuffer value,
      FileChanges changes) throws IOException, RocksDBException {
    List<long[]> versions = versionsOf(id);
    if (versions.isEmpty()) {
      if (value != null) {
        putVersion(batch, id, epoch, new ByteBuffer[] {value}, false, false, changes);
      }
      return;
    }
    long newest = versions.get(versions.size() - 1)[0];
    boolean olderRemain = true;
    if (newest == epoch || (epoch <= now.epoch() && !now.keeps(newest, epoch))) {
      deleteVersion(batch, id, newest, changes);
      olderRemain = versions.size() > 1;
    }
    if (value != null || olderRemain) {
      putVersion(batch, id, epoch, new ByteBuffer[] {value == null ? ByteBuffer.allocate(0) : value},
          false, false, changes);
    }
  }

  /**
   * Drops every version no retained snapshot sees any more (after a snapshot was deleted), and
   * shards that are only a tombstone.
   *
   * @return how many versions were dropped
   */
  @Override
  public long collectGarbage() throws IOException {
    long dropped = 0;
    ShardId current = null;
    List<long[]> group = new ArrayList<>();
    try (RocksIterator it = db.newIterator(versionFamily)) {
      for (it.seekToFirst(); ; it.next()) {
        ShardId id = it.isValid() ? ShardKey.shardOf(it.key()) : null;
        if (current != null && !current.equals(id)) {
          dropped += collect(current, group);
          group.clear();
        }
        if (id == null) {
          break;
        }
        current = id;
        group.add(new long[] {ShardKey.epochOf(it.key()), lengthOf(it.value())});
      }
    }
    return dropped;
  }

  private long collect(ShardId id, List<long[]> indexed) throws IOException {
    if (indexed.size() == 1 && indexed.get(0)[1] > 0) {
      return 0;
    }
    long[] dropped = new long[1];
    withShardLock(id, () -> {
      EpochState now = state;
      List<long[]> versions = versionsOf(id);
      FileChanges changes = new FileChanges();
      try (WriteBatch batch = new WriteBatch()) {
        // a tombstone only matters while it hides an older kept version with data
        boolean dataBelow = false;
        for (int i = 0; i < versions.size(); i++) {
          long v = versions.get(i)[0];
          boolean tombstone = versions.get(i)[1] == 0;
          boolean visible = i == versions.size() - 1 || now.keeps(v, versions.get(i + 1)[0]);
          boolean keep = visible && (!tombstone || dataBelow);
          if (keep) {
            dataBelow = !tombstone;
          } else {
            deleteVersion(batch, id, v, changes);
            dropped[0]++;
          }
        }
        if (dropped[0] > 0) {
          db.write(asyncWrite, batch);
          changes.committed();
        }
      } catch (RocksDBException e) {
        throw storeError("garbage collection", e);
      }
    });
    return dropped[0];
  }

  @Override
  public VersionReport scanVersions(long writtenAfter, long writtenUpTo, boolean usage) {
    EpochState now = state;
    java.util.TreeMap<Long, Long> exclusive = new java.util.TreeMap<>();
    for (long e : now.retained()) {
      exclusive.put(e, 0L);
    }
    java.util.TreeSet<Long> written = new java.util.TreeSet<>();
    ShardId current = null;
    List<long[]> group = new ArrayList<>();
    try (RocksIterator it = db.newIterator(versionFamily)) {
      for (it.seekToFirst(); ; it.next()) {
        ShardId id = it.isValid() ? ShardKey.shardOf(it.key()) : null;
        if (current != null && !current.equals(id) && usage) {
          for (int i = 0; i + 1 < group.size(); i++) {
            long only = now.onlyViewer(group.get(i)[0], group.get(i + 1)[0]);
            if (only >= 0) {
              exclusive.merge(only, Math.max(0, group.get(i)[1] - CRC_BYTES), Long::sum);
            }
          }
          group.clear();
        }
        if (id == null) {
          break;
        }
        current = id;
        long epochOfVersion = ShardKey.epochOf(it.key());
        if (epochOfVersion > writtenAfter && epochOfVersion <= writtenUpTo) {
          written.add(id.fileId());
        }
        group.add(new long[] {epochOfVersion, lengthOf(it.value())});
      }
    }
    return new VersionReport(exclusive, List.copyOf(written));
  }

  /** The distinct shards of a file at or after {@code fromStripe}, from the version index. */
  private List<ShardId> shardsOf(long fileId, long fromStripe) {
    List<ShardId> out = new ArrayList<>();
    byte[] end = ShardKey.fileFrom(fileId + 1, 0);
    try (RocksIterator it = db.newIterator(versionFamily)) {
      for (it.seek(ShardKey.fileFrom(fileId, fromStripe)); it.isValid(); it.next()) {
        byte[] k = it.key();
        if (java.util.Arrays.compareUnsigned(k, end) >= 0) {
          break;
        }
        ShardId id = ShardKey.shardOf(k);
        if (out.isEmpty() || !out.get(out.size() - 1).equals(id)) {
          out.add(id);
        }
      }
    }
    return out;
  }

  /** Every version of a shard as {@code {epoch, value length}}, oldest first. */
  private List<long[]> versionsOf(ShardId id) {
    List<long[]> out = new ArrayList<>();
    try (RocksIterator it = db.newIterator(versionFamily)) {
      for (it.seek(ShardKey.encode(id, 0)); it.isValid() && ShardKey.sameShard(it.key(), id); it.next()) {
        out.add(new long[] {ShardKey.epochOf(it.key()), lengthOf(it.value())});
      }
    }
    return out;
  }

  /**
   * Puts a version's value ({@code parts} in order) into the batch: a large one written to a new
   * value file first (forced when {@code sync}; past the page cache when {@code pastCache}), a
   * small one into RocksDB. Whatever the version held before is dropped with the commit.
   */
  private void putVersion(WriteBatch batch, ShardId id, long epoch, ByteBuffer[] parts, boolean sync,
      boolean pastCache, FileChanges changes) throws IOException, RocksDBException {
    byte[] key = ShardKey.encode(id, epoch);
    byte[] before = indexEntry(key);
    int length = ValueFiles.lengthOf(parts);
    if (length >= minFileValue) {
      ValueFiles.Ref ref = files.write(id, epoch, parts, sync, pastCache);
      changes.written(ref);
      batch.delete(shards, key);     // a small value it replaces, in the store or earlier in this batch
      batch.put(versionFamily, key, ByteBuffer.allocate(FILE_ENTRY).putInt(length).putLong(ref.generation()).array());
    } else {
      byte[] value = new byte[length];
      ByteBuffer into = ByteBuffer.wrap(value);
      for (ByteBuffer p : parts) {
        into.put(p.duplicate());
      }
      batch.put(shards, key, value);
      batch.put(versionFamily, key, ByteBuffer.allocate(INLINE_ENTRY).putInt(length).array());
    }
    if (before != null && before.length == FILE_ENTRY) {
      changes.obsolete(new ValueFiles.Ref(id, epoch, generationOf(before)));
    }
  }

  private void deleteVersion(WriteBatch batch, ShardId id, long epoch, FileChanges changes)
      throws IOException, RocksDBException {
    byte[] key = ShardKey.encode(id, epoch);
    byte[] before = indexEntry(key);
    if (before != null && before.length == FILE_ENTRY) {
      changes.obsolete(new ValueFiles.Ref(id, epoch, generationOf(before)));
    } else {
      batch.delete(shards, key);
    }
    batch.delete(versionFamily, key);
  }

  private static byte[] lengthValue(int length) {
    return ByteBuffer.allocate(INLINE_ENTRY).putInt(length).array();
  }

  /** A version index entry's value length: {@code length(4)}, or {@code length(4) | generation(8)} for a value file. */
  private static long lengthOf(byte[] entry) {
    return entry.length >= INLINE_ENTRY ? ByteBuffer.wrap(entry).getInt() & 0xffffffffL : 0;
  }

  private static long generationOf(byte[] entry) {
    return ByteBuffer.wrap(entry, INLINE_ENTRY, 8).getLong();
  }

  /**
   * Value files an update wrote and made obsolete: once its batch commits the obsolete ones are
   * removed; if it never commits, the ones it wrote are.
   */
  private final class FileChanges {
    private final List<ValueFiles.Ref> written = new ArrayList<>();
    private final List<ValueFiles.Ref> obsolete = new ArrayList<>();
    private boolean committed;

    void written(ValueFiles.Ref ref) {
      // a request writing one shard twice: its first file is replaced by its second
      for (ValueFiles.Ref w : written) {
        if (w.shard().equals(ref.shard()) && w.epoch() == ref.epoch()) {
          obsolete.add(w);
        }
      }
      written.add(ref);
    }

    void obsolete(ValueFiles.Ref ref) {
      obsolete.add(ref);
    }

    void committed() {
      committed = true;
      obsolete.forEach(files::delete);
    }

    void abandonUncommitted() {
      if (!committed) {
        written.forEach(files::delete);
      }
    }
  }

  private interface ShardWork {
    void run() throws IOException, RocksDBException;
  }

  private void withShardLock(ShardId id, ShardWork work) throws IOException {
    ReentrantLock lock = locks[lockStripe(id)];
    lock.lock();
    try {
      work.run();
    } catch (RocksDBException e) {
      throw storeError("update", e);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void sync() throws IOException {
    try {
      files.syncPending();     // before the log that names them
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
    return dirty.scan(null, -1);
  }

  @Override
  public List<DirtyFile> dirtyFiles(String server, long fileId) {
    return dirty.scan(server, fileId);
  }

  @Override
  public List<String> dirtyServers(long fileId) {
    return dirty.serversFor(fileId);
  }

  @Override
  public int clearDirty(String server, List<DirtyFile> entries) throws IOException {
    try {
      return dirty.clear(server, entries);
    } catch (RocksDBException e) {
      throw storeError("dirty-file log clear", e);
    }
  }

  @Override
  public long layoutFloor(long fileId) throws IOException {
    try {
      return fences.floor(fileId);
    } catch (RocksDBException e) {
      throw storeError("layout fence", e);
    }
  }

  @Override
  public void fenceLayout(long fileId, long generation) throws IOException {
    try {
      fences.raise(fileId, generation, syncWrite);
    } catch (RocksDBException e) {
      throw storeError("layout fence", e);
    }
  }

  @Override
  public EpochState epochState() {
    return state;
  }

  @Override
  public void setEpochState(EpochState state) {
    this.state = state;
  }

  @Override
  public long usedBytes() {
    try {
      return files.storedBytes()
          + db.getLongProperty(shards, "rocksdb.total-sst-files-size")
          + db.getLongProperty(shards, "rocksdb.total-blob-file-size")
          + db.getLongProperty(shards, "rocksdb.cur-size-all-mem-tables");
    } catch (RocksDBException e) {
      return 0;
    }
  }

  @Override
  public void close() {
    try {
      files.syncPending();
    } catch (IOException e) {
      // the files are in the page cache; only a power loss right now could cost them
    }
    // a clean stop leaves the shards in table and blob files: the next start replays no log
    try (org.rocksdb.FlushOptions flush = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
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
    dbOptions.close();
    errorLog.close();
    shardOptions.close();
    smallOptions.close();
    cache.close();
  }

  @Override
  public long versionAt(ShardId shard, long atEpoch) {
    Long newest = newestEpoch(shard, atEpoch);
    return newest == null ? NO_VERSION : newest;
  }

  /** The epoch of the newest stored version at or below {@code maxEpoch}, or null when there is none. */
  private Long newestEpoch(ShardId shard, long maxEpoch) {
    try (RocksIterator it = db.newIterator(versionFamily)) {
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

  @Override
  public byte[] scrub(byte[] from, long budgetBytes, List<ShardId> corrupt, List<String> corruptSnapshotOnly)
      throws IOException {
    long read = 0;
    // RocksDB's checksums of what it holds are not checked here: ours names the shard that failed
    try (ReadOptions ro = new ReadOptions().setFillCache(false).setVerifyChecksums(false);
         RocksIterator it = db.newIterator(versionFamily, ro)) {
      if (from == null) {
        it.seekToFirst();
      } else {
        it.seek(from);
        if (it.isValid() && java.util.Arrays.equals(it.key(), from)) {
          it.next();
        }
      }
      for (; it.isValid(); it.next()) {
        byte[] key = it.key();
        long length = lengthOf(it.value());
        read += length;
        if (length > 0 && key.length == ShardKey.LENGTH) {
          ShardId shard = ShardKey.shardOf(key);
          long epoch = ShardKey.epochOf(key);
          if (!soundOrGone(shard, epoch)) {
            Long newest = newestEpoch(shard, Long.MAX_VALUE);
            if (newest != null && newest > epoch) {
              // rebuilding the live shard would not mend it: recovery copies newest versions
              corruptSnapshotOnly.add(shard + " at epoch " + epoch);
            } else {
              corrupt.add(shard);
            }
          }
        }
        if (read >= budgetBytes) {
          return key;
        }
      }
      it.status();
      return null;
    } catch (RocksDBException e) {
      throw storeError("scrub", e);
    }
  }

  /** Whether a stored version passes its checksum (or was replaced since the scan saw it). */
  private boolean soundOrGone(ShardId shard, long epoch) throws IOException {
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

  /** Whether a stored value ({@code crc32c | bytes}) matches the checksum it carries. */
  private static boolean checksumHolds(ByteBuf value) {
    return value.readableBytes() >= CRC_BYTES
        && value.getInt(0) == crc(value, CRC_BYTES, value.readableBytes() - CRC_BYTES);
  }

  /** For tests: what was written lands in table and blob files, and those are compacted. */
  void flushForTesting() throws RocksDBException {
    try (org.rocksdb.FlushOptions flush = new org.rocksdb.FlushOptions().setWaitForFlush(true)) {
      db.flush(flush, shards);
    }
  }

  /** For tests: compacts every table file of the shards, with the blob garbage collection that comes with it. */
  void compactForTesting() throws RocksDBException {
    try (org.rocksdb.CompactRangeOptions all = new org.rocksdb.CompactRangeOptions().setBottommostLevelCompaction(
        org.rocksdb.CompactRangeOptions.BottommostLevelCompaction.kForce)) {
      db.compactRange(shards, null, null, all);
    }
  }

  /** For tests: flips a byte of one stored version's data (its checksum then fails). */
  void damageForTesting(ShardId id, long epoch) throws RocksDBException, IOException {
    byte[] key = ShardKey.encode(id, epoch);
    byte[] entry = db.get(versionFamily, key);
    if (entry.length == FILE_ENTRY) {
      Path file = files.pathForTesting(new ValueFiles.Ref(id, epoch, generationOf(entry)));
      byte[] bytes = Files.readAllBytes(file);
      bytes[bytes.length / 2] ^= 0x5a;   // a value byte: a direct write pads the file by less than a block
      Files.write(file, bytes);
      return;
    }
    byte[] value = db.get(shards, key);
    value[value.length - 1] ^= 0x5a;
    db.put(shards, key, value);
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
