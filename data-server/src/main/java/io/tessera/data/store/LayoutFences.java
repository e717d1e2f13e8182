package io.tessera.data.store;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Per file, the oldest layout generation this server still accepts requests for. Recovery raises it
 * after moving a file's shards from one server to another, so a client that planned with the old
 * layout (it would write to the server the shards left) is refused and re-reads the layout. A
 * deleted file's floor is {@link #DELETED}: nothing planned for it is accepted any more, so a
 * writer that still holds its layout cannot store shards nobody would reclaim. Moved files are kept
 * in memory; deleted ones only on disk (there is one per file ever deleted here), looked up per
 * request. Column family {@code fences}: key fileId, value the generation (8 bytes each).
 */
final class LayoutFences {
  /** The floor of a file whose shards were deleted here: above every generation. */
  static final long DELETED = ShardStore.FILE_DELETED;

  private final RocksDB db;
  private final ColumnFamilyHandle family;
  private final Map<Long, Long> floors = new ConcurrentHashMap<>();

  LayoutFences(RocksDB db, ColumnFamilyHandle family) {
    this.db = db;
    this.family = family;
    try (RocksIterator it = db.newIterator(family)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (it.key().length == 8 && it.value().length == 8) {
          long floor = ByteBuffer.wrap(it.value()).getLong();
          if (floor != DELETED) {
            floors.put(ByteBuffer.wrap(it.key()).getLong(), floor);
          }
        }
      }
    }
  }

  /**
   * The oldest generation accepted for the file (0: never moved, everything accepted; {@link
   * #DELETED}).
   */
  long floor(long fileId) throws RocksDBException {
    Long moved = floors.get(fileId);
    if (moved != null) {
      return moved;
    }
    return deleted(fileId) ? DELETED : 0L;
  }

  /** Whether the file's shards were deleted here. */
  boolean deleted(long fileId) throws RocksDBException {
    byte[] v = db.get(family, key(fileId));
    return v != null && v.length == 8 && ByteBuffer.wrap(v).getLong() == DELETED;
  }

  /** Raises the file's floor to {@code generation} (a lower one is ignored), durably. */
  synchronized void raise(long fileId, long generation, WriteOptions options)
      throws RocksDBException {
    if (generation <= floor(fileId)) {
      return;
    }
    db.put(family, options, key(fileId), ByteBuffer.allocate(8).putLong(generation).array());
    if (generation == DELETED) {
      floors.remove(fileId);
    } else {
      floors.put(fileId, generation);
    }
  }

  /**
   * Marks the files deleted, durably, in one write: above every generation, so unconditionally (the
   * meta leader reclaims a thousand files a request, most of them never stored here).
   */
  synchronized void markDeleted(List<Long> fileIds, WriteOptions options) throws RocksDBException {
    byte[] deleted = ByteBuffer.allocate(8).putLong(DELETED).array();
    try (WriteBatch batch = new WriteBatch()) {
      for (long fileId : fileIds) {
        batch.put(family, key(fileId), deleted);
      }
      db.write(options, batch);
    }
    fileIds.forEach(floors::remove);
  }

  private static byte[] key(long fileId) {
    return ByteBuffer.allocate(8).putLong(fileId).array();
  }
}
