package io.tessera.data.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Granted stripe locks as records in the {@code locks} family, so a restarted server still knows
 * them; a write releasing its lock deletes the record in the write's own batch.
 */
final class LockRecords {
  private final ShardDb db;

  LockRecords(ShardDb db) {
    this.db = db;
  }

  void put(byte[] key, byte[] record) throws IOException {
    try {
      db.db.put(db.locks, db.asyncWrite, key, record);
    } catch (RocksDBException e) {
      throw ShardDb.error("lock", e);
    }
  }

  void remove(byte[] key) throws IOException {
    try {
      db.db.delete(db.locks, db.asyncWrite, key);
    } catch (RocksDBException e) {
      throw ShardDb.error("unlock", e);
    }
  }

  /** Every record as {@code {key, record}}. */
  List<byte[][]> all() {
    List<byte[][]> out = new ArrayList<>();
    try (RocksIterator it = db.db.newIterator(db.locks)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        out.add(new byte[][] {it.key(), it.value()});
      }
    }
    return out;
  }
}
