package io.tessera.data.store;

import static io.tessera.data.store.RocksShardStoreTest.bytes;
import static io.tessera.data.store.RocksShardStoreTest.put;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store that keeps unit-sized values in RocksDB's blob files, as every store did before value
 * files: stores written then still hold such values, and small values still go this way.
 */
class UnitsInRocksDbStoreTest {
  static final int UNITS_IN_ROCKSDB = RocksShardStore.NO_VALUE_FILES;

  @TempDir Path dir;
  RocksShardStore store;

  @BeforeEach
  void open() throws Exception {
    store = new RocksShardStore(dir, UNITS_IN_ROCKSDB);
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static byte[] read(RocksShardStore store, ShardId id, int len) throws Exception {
    ByteBuf got = store.read(id, 0, len);
    byte[] out = new byte[got.readableBytes()];
    got.readBytes(out);
    got.release();
    return out;
  }

  @Test
  void overwritesDoNotKeepEveryWrittenByteOnDiskInTheWriteAheadLog() throws Exception {
    byte[] unit = bytes(1 << 20, 3);
    long written = 0;
    // a checkpoint writer rewriting the same 8 units: each write also touches the small families
    for (int round = 0; round < 96; round++) {
      for (int u = 0; u < 8; u++) {
        store.write(List.of(put(new ShardId(7, 0, u), 0, unit, true)), false);
        written += unit.length;
      }
    }
    long logBytes = 0;
    try (var files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        if (f.getFileName().toString().endsWith(".log")) {
          logBytes += Files.size(f);
        }
      }
    }
    assertThat(written).isGreaterThan(2 * RocksShardStore.MAX_LOG_BYTES);
    // the bound, plus the shard memtables that still need their log (4 x 64 MiB at most)
    assertThat(logBytes)
        .as("write-ahead log after %d MiB of overwrites", written >> 20)
        .isLessThan(RocksShardStore.MAX_LOG_BYTES + (256L << 20));
    assertThat(read(store, new ShardId(7, 0, 5), unit.length)).isEqualTo(unit);
  }

  @Test
  void aFlippedBitInABlobFileThatACompactionMeetsDoesNotStopTheServerFromWriting()
      throws Exception {
    for (int i = 0; i < 4; i++) {
      store.write(List.of(put(new ShardId(30, i, 0), 0, bytes(64 << 10, i), true)), false);
      store.flushForTesting(); // a blob file each: the oldest is then old enough to be collected
    }
    store.close();
    Path oldest;
    try (var files = Files.list(dir)) {
      oldest =
          files
              .filter(f -> f.getFileName().toString().endsWith(".blob"))
              .sorted()
              .findFirst()
              .orElseThrow();
    }
    try (var blob = FileChannel.open(oldest, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      long at = blob.size() / 2; // inside the shard's bytes
      blob.read(b, at);
      b.put(0, (byte) (b.get(0) ^ 0x10)).rewind();
      blob.write(b, at);
    }
    store = new RocksShardStore(dir, UNITS_IN_ROCKSDB);
    try {
      store.compactForTesting(); // its blob garbage collection reads the flipped record
    } catch (org.rocksdb.RocksDBException expected) {
      // the compaction fails and is retried later; what matters is what follows
    }
    store.write(List.of(put(new ShardId(31, 0, 0), 0, bytes(64 << 10, 9), true)), false);
    assertThat(read(store, new ShardId(31, 0, 0), 64 << 10)).isEqualTo(bytes(64 << 10, 9));
    assertThatThrownBy(() -> read(store, new ShardId(30, 0, 0), 64 << 10))
        .as("our checksum names the shard")
        .isInstanceOf(CorruptShardException.class);
  }
}
