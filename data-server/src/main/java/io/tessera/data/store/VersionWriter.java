package io.tessera.data.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.zip.CRC32C;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Puts and removes shard versions in a write batch, keeping the version index and the value files
 * in step: a large value goes to a value file of its own, a small one into RocksDB; a value a write
 * brings is encoded as {@code crc32c(4) | bytes}.
 */
final class VersionWriter {
  private static final int CRC_BYTES = ValueReader.CRC_BYTES;

  private final ShardDb db;
  private final VersionIndex index;
  private final ValueFiles files;
  private final ValueReader values;
  private final ByteBufAllocator alloc;
  private final int minFileValue;

  VersionWriter(
      ShardDb db,
      VersionIndex index,
      ValueFiles files,
      ValueReader values,
      ByteBufAllocator alloc,
      int minFileValue) {
    this.db = db;
    this.index = index;
    this.files = files;
    this.values = values;
    this.alloc = alloc;
    this.minFileValue = minFileValue;
  }

  /**
   * The value a write stores, {@code crc32c | bytes}, as buffers in order: a unit-sized write's own
   * network buffers behind its checksum (nothing copied), a small or partial one in a buffer of its
   * own (added to {@code held}).
   */
  ByteBuffer[] valueOf(ShardWrite w, List<ByteBuf> held) throws IOException {
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
      value
          .writeInt(0)
          .writeZero(w.offset())
          .writeBytes(w.data(), w.data().readerIndex(), w.length());
    } else {
      value = overlay(w);
    }
    held.add(value);
    value.setInt(0, ValueReader.crc(value, CRC_BYTES, value.readableBytes() - CRC_BYTES));
    return new ByteBuffer[] {value.nioBuffer()};
  }

  /** The new value of a partially written unit: the stored bytes with the write laid over them. */
  private ByteBuf overlay(ShardWrite w) throws IOException {
    ByteBuf old = values.newest(w.shard());
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

  /**
   * Replaces a shard's live version with {@code value} (null: a tombstone) at {@code epoch},
   * keeping the old version if a snapshot sees it (or may: an epoch past this server's is a
   * snapshot it has not heard of); a tombstone is only written when an older version remains to be
   * hidden.
   */
  void supersede(
      WriteBatch batch,
      ShardId id,
      long epoch,
      EpochState now,
      ByteBuffer value,
      ValueFileChanges changes)
      throws IOException, RocksDBException {
    List<VersionIndex.Version> versions = index.versionsOf(id);
    if (versions.isEmpty()) {
      if (value != null) {
        putVersion(batch, id, epoch, new ByteBuffer[] {value}, false, false, changes);
      }
      return;
    }
    long newest = versions.get(versions.size() - 1).epoch();
    boolean olderRemain = true;
    if (newest == epoch || (epoch <= now.epoch() && !now.keeps(newest, epoch))) {
      deleteVersion(batch, id, newest, changes);
      olderRemain = versions.size() > 1;
    }
    if (value != null || olderRemain) {
      putVersion(
          batch,
          id,
          epoch,
          new ByteBuffer[] {value == null ? ByteBuffer.allocate(0) : value},
          false,
          false,
          changes);
    }
  }

  /**
   * Puts a version's value ({@code parts} in order) into the batch: a large one written to a new
   * value file first (forced when {@code sync}; past the page cache when {@code pastCache}), a
   * small one into RocksDB. Whatever the version held before is dropped with the commit.
   */
  void putVersion(
      WriteBatch batch,
      ShardId id,
      long epoch,
      ByteBuffer[] parts,
      boolean sync,
      boolean pastCache,
      ValueFileChanges changes)
      throws IOException, RocksDBException {
    byte[] key = ShardKey.encode(id, epoch);
    byte[] before = index.entry(key);
    int length = ValueFiles.lengthOf(parts);
    if (length >= minFileValue) {
      ValueFiles.Ref ref = files.write(id, epoch, parts, sync, pastCache);
      changes.written(ref);
      batch.delete(
          db.shards, key); // a small value it replaces, in the store or earlier in this batch
      batch.put(db.versions, key, VersionIndex.fileEntry(length, ref.generation()));
    } else {
      byte[] value = new byte[length];
      ByteBuffer into = ByteBuffer.wrap(value);
      for (ByteBuffer p : parts) {
        into.put(p.duplicate());
      }
      batch.put(db.shards, key, value);
      batch.put(db.versions, key, VersionIndex.inlineEntry(length));
    }
    if (VersionIndex.inFile(before)) {
      changes.obsolete(VersionIndex.fileOf(id, epoch, before));
    }
  }

  void deleteVersion(WriteBatch batch, ShardId id, long epoch, ValueFileChanges changes)
      throws IOException, RocksDBException {
    byte[] key = ShardKey.encode(id, epoch);
    byte[] before = index.entry(key);
    if (VersionIndex.inFile(before)) {
      changes.obsolete(VersionIndex.fileOf(id, epoch, before));
    } else {
      batch.delete(db.shards, key);
    }
    batch.delete(db.versions, key);
  }
}
