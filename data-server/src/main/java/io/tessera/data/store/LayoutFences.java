package io.tessera.data.store;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteOptions;

/**
 * Per file, the oldest layout generation this server still accepts requests for. Recovery
 * raises it after moving a file's shards from one server to another, so a client that planned
 * with the old layout (it would write to the server the shards left) is refused and re-reads
 * the layout. Only moved files have an entry; all of them are kept in memory. Column family
 * {@code fences}: key fileId, value the generation (8 bytes each).
 */
final class LayoutFences {
  private final RocksDB db;
  private final ColumnFamilyHandle family;
  private final Map<Long, Long> floors = new ConcurrentHashMap<>();

  LayoutFences(RocksDB db, ColumnFamilyHandle family) {
    this.db = db;
    this.family = family;
    try (RocksIterator it = db.newIterator(family)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        if (it.key().length == 8 && it.value().length == 8) {
          floors.put(ByteBuffer.wrap(it.key()).getLong(), ByteBuffer.wrap(it.value()).getLong());
        }
      }
    }
  }

  /** The oldest generation accepted for the file (0: never moved, everything accepted). */
  long floor(long fileId) {
    return floors.getOrDefault(fileId, 0L);
  }

  /** Raises the file's floor to {@code generation} (a lower one is ignored), durably. */
  synchronized void raise(long fileId, long generation, WriteOptions options) throws RocksDBException {
    if (generation <= floor(fileId)) {
      return;
    }
    db.put(family, options, ByteBuffer.allocate(8).putLong(fileId).array(),
        ByteBuffer.allocate(8).putLong(generation).array());
    floors.put(fileId, generation);
  }
}
