package io.tessera.data.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * The dirty-file log of a data server: per skipped server and file, the sequence number of the
 * newest write that went around it. Stored in the {@code dirty} column family (key {@code server |
 * 0 | fileId}, value the sequence), written in the same batch as the write it records; a copy
 * indexed by file answers lock requests without a scan.
 */
final class DirtyLog {
  private final RocksDB db;
  private final ColumnFamilyHandle family;
  private final AtomicLong sequence;

  /** fileId to the servers with an entry for it. */
  private final Map<Long, Set<String>> byFile = new HashMap<>();

  DirtyLog(RocksDB db, ColumnFamilyHandle family) {
    this.db = db;
    this.family = family;
    long highest = 0;
    try (RocksIterator it = db.newIterator(family)) {
      for (it.seekToFirst(); it.isValid(); it.next()) {
        DirtyFile d = decode(it.key(), it.value());
        if (d != null) {
          byFile.computeIfAbsent(d.fileId(), f -> new TreeSet<>()).add(d.missingServer());
          highest = Math.max(highest, d.sequence());
        }
      }
    }
    // sequences only need to differ from every earlier one: the clock keeps them apart across
    // restarts
    sequence = new AtomicLong(Math.max(highest, System.currentTimeMillis() * 1000));
  }

  /**
   * Adds to {@code batch} a new sequence for {@code fileId} under each skipped server; returns what
   * to remember once the batch is written.
   *
   * @throws UnrecordedSkipException when a server has no entry yet and the writer did not record it
   *     as stale in the meta group
   */
  synchronized Runnable record(
      WriteBatch batch, long fileId, List<String> skipped, boolean staleMarked)
      throws UnrecordedSkipException, RocksDBException {
    Set<String> known = byFile.getOrDefault(fileId, Set.of());
    for (String server : skipped) {
      if (!staleMarked && !known.contains(server)) {
        throw new UnrecordedSkipException(server, fileId);
      }
    }
    for (String server : skipped) {
      batch.put(
          family,
          key(server, fileId),
          ByteBuffer.allocate(8).putLong(sequence.incrementAndGet()).array());
    }
    return () -> {
      synchronized (this) {
        byFile.computeIfAbsent(fileId, f -> new TreeSet<>()).addAll(skipped);
      }
    };
  }

  /** Servers with an entry for the file. */
  synchronized List<String> serversFor(long fileId) {
    return List.copyOf(byFile.getOrDefault(fileId, Set.of()));
  }

  /** Entries for {@code server} (null: every server), only {@code fileId}'s when it is >= 0. */
  List<DirtyFile> scan(String server, long fileId) {
    List<DirtyFile> out = new ArrayList<>();
    byte[] prefix = server == null ? new byte[0] : prefix(server);
    try (RocksIterator it = db.newIterator(family)) {
      if (server != null && fileId >= 0) {
        byte[] k = key(server, fileId);
        it.seek(k);
        if (it.isValid() && Arrays.equals(it.key(), k)) {
          out.add(decode(it.key(), it.value()));
        }
        return out;
      }
      for (it.seek(prefix); it.isValid() && startsWith(it.key(), prefix); it.next()) {
        DirtyFile d = decode(it.key(), it.value());
        if (d != null && (fileId < 0 || d.fileId() == fileId)) {
          out.add(d);
        }
      }
    }
    return out;
  }

  /** Drops each entry whose sequence is still the given one; returns how many were dropped. */
  synchronized int clear(String server, List<DirtyFile> entries) throws RocksDBException {
    int dropped = 0;
    try (WriteBatch batch = new WriteBatch();
        org.rocksdb.WriteOptions wo = new org.rocksdb.WriteOptions()) {
      List<Long> files = new ArrayList<>();
      for (DirtyFile e : entries) {
        byte[] k = key(server, e.fileId());
        byte[] v = db.get(family, k);
        if (v != null && v.length == 8 && ByteBuffer.wrap(v).getLong() == e.sequence()) {
          batch.delete(family, k);
          files.add(e.fileId());
        }
      }
      db.write(wo, batch);
      for (long f : files) {
        Set<String> s = byFile.get(f);
        if (s != null && s.remove(server) && s.isEmpty()) {
          byFile.remove(f);
        }
        dropped++;
      }
    }
    return dropped;
  }

  private static byte[] prefix(String server) {
    byte[] id = server.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(id.length + 1).put(id).put((byte) 0).array();
  }

  static byte[] key(String server, long fileId) {
    byte[] id = server.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(id.length + 9).put(id).put((byte) 0).putLong(fileId).array();
  }

  private static DirtyFile decode(byte[] k, byte[] v) {
    int sep = k.length - 9;
    if (sep < 0 || k[sep] != 0 || v.length != 8) {
      return null;
    }
    return new DirtyFile(
        new String(k, 0, sep, StandardCharsets.UTF_8),
        ByteBuffer.wrap(k, sep + 1, 8).getLong(),
        ByteBuffer.wrap(v).getLong());
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
