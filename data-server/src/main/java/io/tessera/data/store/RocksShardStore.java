package io.tessera.data.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shards in one RocksDB: key {@link ShardKey}, value {@code crc32c(4) | bytes}; an empty value is a
 * tombstone (the shard was truncated away or its file removed at that epoch, while a snapshot still
 * sees an older version). Values of at least {@link #MIN_FILE_VALUE} bytes (a stripe unit's size)
 * are kept in {@link ValueFiles} instead, one file per version, which the version index names;
 * small ones stay in the default column family. Small column families sit beside the shards so that
 * a write and its bookkeeping commit in one batch: {@code versions} (every shard key with its
 * value's length and, for a value in a file, the file's generation: reads find their value through
 * it, and scans never touch values), {@code locks} (granted stripe locks) and {@code dirty} (the
 * dirty-file log, key {@code server id | 0 | fileId}, value the time of the first entry); {@code
 * fences} holds the {@link LayoutFences} of files whose shards recovery moved between servers.
 *
 * <p>Versions follow {@link EpochState}'s rule: a write at epoch {@code C} replaces the shard's
 * newest version unless a retained snapshot still sees it; reads at a snapshot seek the newest
 * version at or below it; {@link #collectGarbage()} drops versions no snapshot sees any more.
 *
 * <p>A unit-sized write goes from the network buffers to its file in one gathering write (its
 * CRC32C computed over them in place); a read maps the file and replies with a slice of the
 * mapping. Every value carries our CRC32C, verified on every read.
 *
 * <p>Over 500 lines because each update (write, truncate, delete, GC) is one read-modify-write of
 * versions, value files and bookkeeping committed in one batch under the shard mutexes; the pieces
 * it orchestrates ({@link ShardDb}, {@link VersionIndex}, {@link ValueReader}, {@link
 * VersionWriter}) live apart.
 */
public final class RocksShardStore implements ShardStore {
  private static final Logger LOG = LoggerFactory.getLogger(RocksShardStore.class);

  /**
   * A deleted file with more versions than this goes in one range tombstone, a smaller one in point
   * tombstones: every read of a memtable sorts its range tombstones again, so a few thousand
   * removed small files made an idle server burn a core.
   */
  private static final int RANGE_DELETE_FROM = 1024;

  private static final int CRC_BYTES = ValueReader.CRC_BYTES;

  /** Write-ahead log kept at most (beyond what the shard memtables still need). */
  static final long MAX_LOG_BYTES = ShardDb.MAX_LOG_BYTES;

  /**
   * Values at least this large (crc included) go to their own file. RocksDB's blob files took
   * values from this size before value files existed; stores written then still read them.
   */
  public static final int MIN_FILE_VALUE = 32 << 10;

  /** {@link #RocksShardStore(Path, int)}'s threshold that keeps every value in RocksDB. */
  public static final int NO_VALUE_FILES = Integer.MAX_VALUE;

  private final ByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
  private final ShardDb db;
  private final VersionIndex index;
  private final ValueReader values;
  private final VersionWriter writer;
  private final ShardMutexes mutexes = new ShardMutexes();
  private final LockRecords lockRecords;
  private final DirtyLog dirty;
  private final LayoutFences fences;
  private final ValueFiles files;
  private volatile EpochState state = EpochState.INITIAL;
  private final AtomicLong unsyncedWrites = new AtomicLong();

  public RocksShardStore(Path dir) throws IOException {
    this(dir, MIN_FILE_VALUE);
  }

  /**
   * A store whose new values of {@code minFileValue} bytes or more (checksum included) go to value
   * files ({@link #NO_VALUE_FILES}: none); values already stored are read wherever they are.
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
    this.db = new ShardDb(dir, MIN_FILE_VALUE);
    this.index = new VersionIndex(db);
    this.lockRecords = new LockRecords(db);
    this.dirty = new DirtyLog(db.db, db.dirty);
    this.fences = new LayoutFences(db.db, db.fences);
    if (db.indexMissing) {
      index.rebuild();
    }
    this.files = new ValueFiles(dir.resolve("values"), options);
    files.sweep(index::names);
    this.values = new ValueReader(db, index, files, alloc, () -> state);
    this.writer = new VersionWriter(db, index, files, values, alloc, minFileValue);
  }

  @Override
  public void write(List<ShardWrite> writes, WriteBookkeeping book, long epoch, boolean sync)
      throws IOException {
    int[] stripes = mutexes.lockAll(writes);
    List<ByteBuf> held = new ArrayList<>();
    ValueFileChanges changes = new ValueFileChanges(files);
    try (WriteBatch batch = new WriteBatch()) {
      EpochState now = state;
      for (ShardWrite w : writes) {
        long current = epoch == CURRENT_EPOCH ? now.epoch() : epoch;
        // before the first snapshot there is no older epoch whose version could linger
        Long older =
            current > 0 || now.epoch() > 0 ? index.newestEpoch(w.shard(), Long.MAX_VALUE) : null;
        if (older != null && older > current) {
          if (epoch != CURRENT_EPOCH) {
            throw new IllegalArgumentException(
                "shard "
                    + w.shard()
                    + " has a version at epoch "
                    + older
                    + ", newer than the write's epoch "
                    + epoch);
          }
          current = older; // a writer stamped it past this server's epoch: a snapshot was committed
        }
        if (w.hole()) {
          writer.supersede(batch, w.shard(), current, now, null, changes);
          continue;
        }
        // stamped past this server's epoch: a snapshot at its epoch was committed that the
        // retained list here does not name yet, and it sees every older version
        boolean keepOlder = current > now.epoch();
        if (older != null && older != current && !keepOlder && !now.keeps(older, current)) {
          writer.deleteVersion(batch, w.shard(), older, changes);
        }
        writer.putVersion(
            batch, w.shard(), current, writer.valueOf(w, held), sync, w.pastCache(), changes);
      }
      commit(batch, book, book.fileId(), sync, changes);
      if (!sync) {
        unsyncedWrites.incrementAndGet();
      }
    } catch (RocksDBException e) {
      throw ShardDb.error("write", e);
    } finally {
      changes.abandonUncommitted();
      held.forEach(ByteBuf::release);
      mutexes.unlock(stripes);
    }
    removeIfDeletedMeanwhile(writes);
  }

  /**
   * A write admitted before its file was deleted here that committed after the delete looked for
   * the file's shards: nobody would reclaim what it stored, so it goes now. (The write is still
   * answered as done: its file is gone either way.)
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
        throw ShardDb.error("write", e);
      }
      if (deleted) {
        LOG.info(
            "A write to file {} arrived as the file was deleted here; its shards were removed again",
            fileId);
        removeShards(List.of(fileId));
      }
    }
  }

  @Override
  public ByteBuf read(ShardId shard, int offset, int length, long atEpoch) throws IOException {
    ByteBuf value = values.read(shard, atEpoch, offset == 0 ? length : ValueReader.PART);
    if (value == null) {
      return null;
    }
    int stored = value.readableBytes() - CRC_BYTES;
    int n = Math.max(0, Math.min(length, stored - offset));
    ByteBuf out = value.retainedSlice(CRC_BYTES + Math.min(offset, stored), n);
    value.release();
    return out;
  }

  @Override
  public void deleteFiles(List<Long> fileIds) throws IOException {
    try {
      // first: a write that commits after the look below finds the mark and removes itself
      fences.markDeleted(fileIds, db.asyncWrite);
    } catch (RocksDBException e) {
      throw ShardDb.error("delete", e);
    }
    removeShards(fileIds);
  }

  @Override
  public void dropCopy(long fileId) throws IOException {
    removeShards(List.of(fileId));
  }

  /**
   * Removes every shard of the files in one write (live ones only, where snapshots may still see
   * them).
   */
  private void removeShards(List<Long> fileIds) throws IOException {
    EpochState now = state;
    ValueFileChanges changes = new ValueFileChanges(files);
    try (WriteBatch batch = new WriteBatch()) {
      if (now.hasSnapshots()) {
        // snapshots may still see the files: their shards end in tombstones, older versions stay
        for (long fileId : fileIds) {
          for (ShardId id : index.shardsOf(fileId, 0)) {
            mutexes.with(id, () -> writer.supersede(batch, id, now.epoch(), now, null, changes));
          }
        }
      } else {
        // files never stored here (empty ones, or their data went elsewhere) have no versions
        for (VersionIndex.FileVersions versions : index.versionsOf(fileIds)) {
          versions.valueFiles().forEach(changes::obsolete);
          remove(batch, versions);
        }
      }
      if (batch.count() > 0) {
        db.db.write(db.asyncWrite, batch);
      }
      changes.committed();
    } catch (RocksDBException e) {
      throw ShardDb.error("delete", e);
    }
  }

  private void remove(WriteBatch batch, VersionIndex.FileVersions versions)
      throws RocksDBException {
    long fileId = versions.fileId();
    if (versions.keys().size() > RANGE_DELETE_FROM) {
      batch.deleteRange(db.shards, ShardKey.fileFrom(fileId, 0), ShardKey.fileFrom(fileId + 1, 0));
      batch.deleteRange(
          db.versions, ShardKey.fileFrom(fileId, 0), ShardKey.fileFrom(fileId + 1, 0));
      return;
    }
    for (byte[] key : versions.keys()) {
      batch.delete(db.shards, key);
      batch.delete(db.versions, key);
    }
  }

  @Override
  public void truncateFile(long fileId, long stripe, int[] keepLengths, WriteBookkeeping book)
      throws IOException {
    EpochState now = state;
    List<ByteBuf> held = new ArrayList<>();
    ValueFileChanges changes = new ValueFileChanges(files);
    try (WriteBatch batch = new WriteBatch()) {
      for (ShardId id : index.shardsOf(fileId, stripe)) {
        int keep =
            id.stripe() > stripe || id.unit() >= keepLengths.length ? 0 : keepLengths[id.unit()];
        mutexes.with(
            id,
            () -> {
              if (keep == 0) {
                writer.supersede(batch, id, now.epoch(), now, null, changes);
                return;
              }
              ByteBuf value;
              try {
                value = values.newest(id);
              } catch (CorruptShardException e) {
                // left as it is: still corrupt, so still read around and rewritten by recovery (the
                // rebuild that truncates this server's copy first among them), never cut into a
                // value that would pass its checksum
                LOG.warn(
                    "Truncate of file {} left shard {} as it is: {}", fileId, id, e.getMessage());
                return;
              }
              if (value == null) {
                return;
              }
              held.add(value);
              if (value.readableBytes() - CRC_BYTES > keep) {
                value.writerIndex(CRC_BYTES + keep);
                value.setInt(0, ValueReader.crc(value, CRC_BYTES, keep));
                writer.supersede(batch, id, now.epoch(), now, value.nioBuffer(), changes);
              }
            });
      }
      commit(batch, book, fileId, false, changes);
    } catch (RocksDBException e) {
      throw ShardDb.error("truncate", e);
    } finally {
      changes.abandonUncommitted();
      held.forEach(ByteBuf::release);
    }
  }

  /**
   * Commits an update's batch with its bookkeeping: the writer's released lock record and the
   * dirty-file log entries of the servers it skipped go in the same batch.
   */
  private void commit(
      WriteBatch batch, WriteBookkeeping book, long fileId, boolean sync, ValueFileChanges changes)
      throws IOException, RocksDBException {
    if (book.releasedLock() != null) {
      batch.delete(db.locks, book.releasedLock());
    }
    Runnable remember =
        book.missingServers().isEmpty()
            ? null
            : dirty.record(batch, fileId, book.missingServers(), book.staleMarked());
    db.db.write(sync ? db.syncWrite : db.asyncWrite, batch);
    changes.committed();
    if (remember != null) {
      remember.run();
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
    long[] dropped = new long[1];
    index.forEachShard(
        (id, indexed) -> {
          if (indexed.size() > 1 || indexed.get(0).tombstone()) {
            dropped[0] += collect(id);
          }
        });
    return dropped[0];
  }

  private long collect(ShardId id) throws IOException {
    long[] dropped = new long[1];
    mutexes.with(
        id,
        () -> {
          EpochState now = state;
          List<VersionIndex.Version> versions = index.versionsOf(id);
          ValueFileChanges changes = new ValueFileChanges(files);
          try (WriteBatch batch = new WriteBatch()) {
            // a tombstone only matters while it hides an older kept version with data
            boolean dataBelow = false;
            for (int i = 0; i < versions.size(); i++) {
              long v = versions.get(i).epoch();
              boolean tombstone = versions.get(i).tombstone();
              boolean visible =
                  i == versions.size() - 1 || now.keeps(v, versions.get(i + 1).epoch());
              if (visible && (!tombstone || dataBelow)) {
                dataBelow = !tombstone;
              } else {
                writer.deleteVersion(batch, id, v, changes);
                dropped[0]++;
              }
            }
            if (dropped[0] > 0) {
              db.db.write(db.asyncWrite, batch);
              changes.committed();
            }
          } catch (RocksDBException e) {
            throw ShardDb.error("garbage collection", e);
          }
        });
    return dropped[0];
  }

  @Override
  public VersionReport scanVersions(long writtenAfter, long writtenUpTo, boolean usage)
      throws IOException {
    EpochState now = state;
    TreeMap<Long, Long> exclusive = new TreeMap<>();
    for (long e : now.retained()) {
      exclusive.put(e, 0L);
    }
    TreeSet<Long> written = new TreeSet<>();
    index.forEachShard(
        (id, versions) -> {
          for (int i = 0; i < versions.size(); i++) {
            long epoch = versions.get(i).epoch();
            if (epoch > writtenAfter && epoch <= writtenUpTo) {
              written.add(id.fileId());
            }
            long only =
                usage && i + 1 < versions.size()
                    ? now.onlyViewer(epoch, versions.get(i + 1).epoch())
                    : -1;
            if (only >= 0) {
              exclusive.merge(only, Math.max(0, versions.get(i).length() - CRC_BYTES), Long::sum);
            }
          }
        });
    return new VersionReport(exclusive, List.copyOf(written));
  }

  @Override
  public void sync() throws IOException {
    long covered = unsyncedWrites.get(); // writes committed later may miss this sync
    try {
      files.syncPending(); // before the log that names them
      db.flushWal();
    } catch (RocksDBException e) {
      throw ShardDb.error("sync", e);
    }
    unsyncedWrites.addAndGet(-covered);
  }

  @Override
  public long unsyncedWrites() {
    return unsyncedWrites.get();
  }

  @Override
  public void putLock(byte[] key, byte[] record) throws IOException {
    lockRecords.put(key, record);
  }

  @Override
  public void removeLock(byte[] key) throws IOException {
    lockRecords.remove(key);
  }

  @Override
  public List<byte[][]> locks() {
    return lockRecords.all();
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
      throw ShardDb.error("dirty-file log clear", e);
    }
  }

  @Override
  public long layoutFloor(long fileId) throws IOException {
    try {
      return fences.floor(fileId);
    } catch (RocksDBException e) {
      throw ShardDb.error("layout fence", e);
    }
  }

  @Override
  public void fenceLayout(long fileId, long generation) throws IOException {
    try {
      fences.raise(fileId, generation, db.syncWrite);
    } catch (RocksDBException e) {
      throw ShardDb.error("layout fence", e);
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
      return files.storedBytes() + db.shardBytes();
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
    db.close();
  }

  @Override
  public long versionAt(ShardId shard, long atEpoch) {
    Long newest = index.newestEpoch(shard, atEpoch);
    return newest == null ? NO_VERSION : newest;
  }

  @Override
  public byte[] scrub(
      byte[] from, long budgetBytes, List<ShardId> corrupt, List<String> corruptSnapshotOnly)
      throws IOException {
    long read = 0;
    // RocksDB's checksums of what it holds are not checked here: ours names the shard that failed
    try (ReadOptions ro = new ReadOptions().setFillCache(false).setVerifyChecksums(false);
        RocksIterator it = db.db.newIterator(db.versions, ro)) {
      if (from == null) {
        it.seekToFirst();
      } else {
        it.seek(from);
        if (it.isValid() && Arrays.equals(it.key(), from)) {
          it.next();
        }
      }
      for (; it.isValid(); it.next()) {
        byte[] key = it.key();
        long length = VersionIndex.lengthOf(it.value());
        read += length;
        if (length > 0 && key.length == ShardKey.LENGTH) {
          ShardId shard = ShardKey.shardOf(key);
          long epoch = ShardKey.epochOf(key);
          if (!values.soundOrGone(shard, epoch)) {
            Long newest = index.newestEpoch(shard, Long.MAX_VALUE);
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
      throw ShardDb.error("scrub", e);
    }
  }

  /** For tests: what was written lands in table and blob files. */
  void flushForTesting() throws RocksDBException {
    db.flushShards();
  }

  /**
   * For tests: compacts every table file of the shards, with the blob garbage collection that comes
   * with it.
   */
  void compactForTesting() throws RocksDBException {
    db.compactShards();
  }

  /** For tests: flips a byte of one stored version's data (its checksum then fails). */
  void damageForTesting(ShardId id, long epoch) throws RocksDBException, IOException {
    byte[] key = ShardKey.encode(id, epoch);
    byte[] entry = index.entry(key);
    if (VersionIndex.inFile(entry)) {
      Path file = files.pathForTesting(VersionIndex.fileOf(id, epoch, entry));
      byte[] bytes = Files.readAllBytes(file);
      bytes[bytes.length / 2] ^=
          0x5a; // a value byte: a direct write pads the file by less than a block
      Files.write(file, bytes);
      return;
    }
    byte[] value = db.db.get(db.shards, key);
    value[value.length - 1] ^= 0x5a;
    db.db.put(db.shards, key, value);
  }
}
