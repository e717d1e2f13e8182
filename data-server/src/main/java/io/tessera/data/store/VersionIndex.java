package io.tessera.data.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The version index ({@code versions} family): every shard key ({@link ShardKey}) with its value's
 * length and, for a value in a value file, the file's generation. Reads find their value through
 * it; scans, garbage collection and deletes walk it and never touch values. Entry: {@code
 * length(4)}, or {@code length(4) | generation(8)} for a value file.
 */
final class VersionIndex {
  private static final int INLINE_ENTRY = 4;
  private static final int FILE_ENTRY = 12;

  /** One stored version: its epoch and its value's length (crc included; 0 for a tombstone). */
  record Version(long epoch, long length) {
    boolean tombstone() {
      return length == 0;
    }
  }

  /** Every version key of a file, and the value files among them. */
  record FileVersions(long fileId, List<byte[]> keys, List<ValueFiles.Ref> valueFiles) {}

  /** Called with each shard and its versions, oldest first. */
  interface ShardVisitor {
    void visit(ShardId shard, List<Version> versions) throws IOException;
  }

  private final ShardDb db;

  VersionIndex(ShardDb db) {
    this.db = db;
  }

  /** The entry of one version, or null. */
  byte[] entry(byte[] key) throws IOException {
    try {
      return db.db.get(db.versions, key);
    } catch (RocksDBException e) {
      throw ShardDb.error("read", e);
    }
  }

  static boolean inFile(byte[] entry) {
    return entry != null && entry.length == FILE_ENTRY;
  }

  static long lengthOf(byte[] entry) {
    return entry.length >= INLINE_ENTRY ? ByteBuffer.wrap(entry).getInt() & 0xffffffffL : 0;
  }

  static long generationOf(byte[] entry) {
    return ByteBuffer.wrap(entry, INLINE_ENTRY, 8).getLong();
  }

  /** The value file an entry names. */
  static ValueFiles.Ref fileOf(ShardId shard, long epoch, byte[] entry) {
    return new ValueFiles.Ref(shard, epoch, generationOf(entry));
  }

  static byte[] inlineEntry(int length) {
    return ByteBuffer.allocate(INLINE_ENTRY).putInt(length).array();
  }

  static byte[] fileEntry(int length, long generation) {
    return ByteBuffer.allocate(FILE_ENTRY).putInt(length).putLong(generation).array();
  }

  /** Whether the index names this value file (at start: the others are left over). */
  boolean names(ValueFiles.Ref ref) {
    try {
      byte[] entry = db.db.get(db.versions, ShardKey.encode(ref.shard(), ref.epoch()));
      return inFile(entry) && generationOf(entry) == ref.generation();
    } catch (RocksDBException e) {
      return true; // keep what cannot be checked
    }
  }

  /** Builds the index of a store written before it existed, from the shards themselves. */
  void rebuild() throws IOException {
    try (RocksIterator it = db.db.newIterator(db.shards);
        WriteBatch batch = new WriteBatch()) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        batch.put(db.versions, it.key(), inlineEntry(it.value().length));
      }
      db.db.write(db.asyncWrite, batch);
    } catch (RocksDBException e) {
      throw ShardDb.error("version index rebuild", e);
    }
  }

  /**
   * The epoch of the newest stored version at or below {@code maxEpoch}, or null when there is
   * none.
   */
  Long newestEpoch(ShardId shard, long maxEpoch) {
    try (RocksIterator it = db.db.newIterator(db.versions)) {
      it.seekForPrev(ShardKey.encode(shard, maxEpoch));
      if (!it.isValid()) {
        return null;
      }
      byte[] k = it.key();
      return ShardKey.sameShard(k, shard) ? ShardKey.epochOf(k) : null;
    }
  }

  /** Every version of a shard, oldest first. */
  List<Version> versionsOf(ShardId id) {
    List<Version> out = new ArrayList<>();
    try (RocksIterator it = db.db.newIterator(db.versions)) {
      for (it.seek(ShardKey.encode(id, 0));
          it.isValid() && ShardKey.sameShard(it.key(), id);
          it.next()) {
        out.add(new Version(ShardKey.epochOf(it.key()), lengthOf(it.value())));
      }
    }
    return out;
  }

  /** The distinct shards of a file at or after {@code fromStripe}. */
  List<ShardId> shardsOf(long fileId, long fromStripe) {
    List<ShardId> out = new ArrayList<>();
    byte[] end = ShardKey.fileFrom(fileId + 1, 0);
    try (RocksIterator it = db.db.newIterator(db.versions)) {
      for (it.seek(ShardKey.fileFrom(fileId, fromStripe)); it.isValid(); it.next()) {
        byte[] k = it.key();
        if (Arrays.compareUnsigned(k, end) >= 0) {
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

  /**
   * The versions of the files that have any here, in file order, through one iterator (a delete
   * names up to a thousand files). A write that commits between this look and a delete removes its
   * version itself ({@link RocksShardStore#write}).
   */
  List<FileVersions> versionsOf(List<Long> fileIds) {
    List<FileVersions> out = new ArrayList<>();
    try (RocksIterator it = db.db.newIterator(db.versions)) {
      for (long fileId : fileIds.stream().sorted().toList()) {
        FileVersions v = versionsOf(it, fileId);
        if (!v.keys().isEmpty()) {
          out.add(v);
        }
      }
    }
    return out;
  }

  private FileVersions versionsOf(RocksIterator it, long fileId) {
    List<byte[]> keys = new ArrayList<>();
    List<ValueFiles.Ref> files = new ArrayList<>();
    byte[] end = ShardKey.fileFrom(fileId + 1, 0);
    for (it.seek(ShardKey.fileFrom(fileId, 0)); it.isValid(); it.next()) {
      byte[] k = it.key();
      if (Arrays.compareUnsigned(k, end) >= 0) {
        break;
      }
      keys.add(k);
      if (inFile(it.value())) {
        files.add(fileOf(ShardKey.shardOf(k), ShardKey.epochOf(k), it.value()));
      }
    }
    return new FileVersions(fileId, keys, files);
  }

  /** Walks the whole index one shard at a time. */
  void forEachShard(ShardVisitor visitor) throws IOException {
    ShardId current = null;
    List<Version> group = new ArrayList<>();
    try (RocksIterator it = db.db.newIterator(db.versions)) {
      for (it.seekToFirst(); ; it.next()) {
        ShardId id = it.isValid() ? ShardKey.shardOf(it.key()) : null;
        if (current != null && !current.equals(id)) {
          visitor.visit(current, group);
          group = new ArrayList<>();
        }
        if (id == null) {
          return;
        }
        current = id;
        group.add(new Version(ShardKey.epochOf(it.key()), lengthOf(it.value())));
      }
    }
  }
}
