package io.tessera.data.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import io.tessera.common.platform.UnpackedLibraries;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link RocksShardStoreTest} again with every value that holds data in a value file
 * (snapshot versions, truncation, tombstones, the scrubber, restarts), plus what only value files
 * can get wrong.
 */
class ValueFilesStoreTest extends RocksShardStoreTest {
  private static final int UNIT = 64 << 10;

  @Override
  RocksShardStore openStore() throws Exception {
    return new RocksShardStore(dir, 5); // a checksum and one byte
  }

  /** The files that hold values (not the spares kept for reuse). */
  private List<Path> valueFiles() throws Exception {
    Path spare = dir.resolve("values").resolve("spare");
    try (Stream<Path> all = Files.walk(dir.resolve("values"))) {
      return all.filter(Files::isRegularFile).filter(f -> !f.startsWith(spare)).toList();
    }
  }

  private List<Path> spareFiles() throws Exception {
    try (Stream<Path> all = Files.list(dir.resolve("values").resolve("spare"))) {
      return all.toList();
    }
  }

  private long bytesOnDisk() throws Exception {
    try (Stream<Path> all = Files.walk(dir)) {
      long sum = 0;
      for (Path p : (Iterable<Path>) all.filter(Files::isRegularFile)::iterator) {
        sum += Files.size(p);
      }
      return sum;
    }
  }

  @Test
  void aUnitIsOneFileThatAnOverwriteReplacesAndADeleteRemoves() throws Exception {
    ShardId id = new ShardId(40, 0, 0);
    store.write(List.of(put(id, 0, bytes(UNIT, 1), true)), false);
    assertThat(valueFiles()).hasSize(1);
    assertThat(Files.size(valueFiles().get(0)))
        .as("checksum and bytes (with direct I/O, padded to a whole block)")
        .isIn(UNIT + 4L, (UNIT + 4L + 4095) / 4096 * 4096);

    store.write(List.of(put(id, 0, bytes(UNIT, 2), true)), false);
    store.write(List.of(put(id, 100, bytes(10, 3), false)), false);
    byte[] expect = bytes(UNIT, 2);
    System.arraycopy(bytes(10, 3), 0, expect, 100, 10);
    assertThat(read(id, 0, UNIT)).isEqualTo(expect);
    assertThat(valueFiles()).as("the replaced versions' files are gone").hasSize(1);

    store.deleteFile(40);
    assertThat(valueFiles()).isEmpty();
    // three files written, the third into the first one's; the other two are kept for new units
    assertThat(spareFiles()).as("the removed files, kept to hold new units").hasSize(2);
    assertThat(read(id, 0, 10)).isNull();
  }

  /** Units written whole and cold units read whole past the page cache. */
  private static final ValueFileOptions DIRECT_IO = new ValueFileOptions(true, true, 256L << 20);

  /**
   * By default a unit just written stays in the page cache, so reading a file right after writing
   * it (a checkpoint read back, a benchmark's read pass) costs no disk read.
   */
  @Test
  void withTheDefaultsAUnitJustWrittenIsReadFromThePageCache() throws Exception {
    byte[] value = bytes(UNIT + 4, 5);
    ValueFiles files = new ValueFiles(dir.resolve("defaults"), ValueFileOptions.DEFAULTS);
    ValueFiles.Ref ref =
        files.write(
            new ShardId(64, 0, 0), 0, new ByteBuffer[] {ByteBuffer.wrap(value)}, false, true);
    assertThat(Files.size(files.pathForTesting(ref))).isEqualTo(value.length);
    assertThat(cached(files.pathForTesting(ref), value.length)).isTrue();
    assertThat(wholeReadIsMapped(files, ref, value)).as("replied from the cache").isTrue();
  }

  /**
   * A value written with direct I/O fills its file to a whole block; a reader takes the length from
   * the index and gets exactly the value. A file system that refuses direct I/O (an older kernel's
   * tmpfs, some network file systems) gets every value through the page cache instead, unpadded,
   * rather than a failed write.
   */
  @Test
  void directWritesPadToABlockAndAFileSystemThatRefusesThemGetsThePageCache() throws Exception {
    byte[] value = bytes(UNIT + 4, 9); // as stored: a checksum, then the unit
    ValueFiles direct = new ValueFiles(dir.resolve("direct"), DIRECT_IO);
    ValueFiles.Ref a =
        direct.write(
            new ShardId(60, 0, 0),
            0,
            new ByteBuffer[] {ByteBuffer.wrap(value, 0, 4), ByteBuffer.wrap(value, 4, UNIT)},
            false,
            true);
    assertThat(Files.size(direct.pathForTesting(a)))
        .as(
            "a direct write's file: a whole block (unpadded only where "
                + "this file system refuses direct I/O)")
        .isIn(69_632L, (long) value.length);
    assertThat(readAll(direct, a, value.length)).isEqualTo(value);
    ValueFiles.Ref kept =
        direct.write(
            new ShardId(60, 1, 0), 0, new ByteBuffer[] {ByteBuffer.wrap(value)}, false, false);
    assertThat(Files.size(direct.pathForTesting(kept)))
        .as("a unit a partial write will read back: through the " + "page cache")
        .isEqualTo(value.length);

    OpenOption refused = new OpenOption() {};
    ValueFiles buffered = new ValueFiles(dir.resolve("refused"), DIRECT_IO, refused);
    for (int i = 0; i < 2; i++) {
      ValueFiles.Ref b =
          buffered.write(
              new ShardId(61, i, 0), 0, new ByteBuffer[] {ByteBuffer.wrap(value)}, i == 1, true);
      assertThat(Files.size(buffered.pathForTesting(b)))
          .as("write %d where direct I/O is refused", i)
          .isEqualTo(value.length);
      assertThat(readAll(buffered, b, value.length)).isEqualTo(value);
    }
  }

  /**
   * A streaming reader of a cold unit must not leave it in the data server's page cache (filling
   * cache pages cost the server more CPU than the read itself), but a unit a partial write keeps
   * cached, or one a small read just brought in, is served from the cache rather than the device.
   */
  @Test
  void aWholeUnitReadOfAColdFileStaysOutOfThePageCacheAndACachedOneIsServedFromIt()
      throws Exception {
    byte[] value = bytes(UNIT + 4, 3);
    ValueFiles files = new ValueFiles(dir.resolve("reads"), DIRECT_IO);
    ValueFiles.Ref cold =
        files.write(
            new ShardId(62, 0, 0), 0, new ByteBuffer[] {ByteBuffer.wrap(value)}, false, true);
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.size(files.pathForTesting(cold)) % 4096 == 0, "this file system refuses direct I/O");
    assertThat(cached(files.pathForTesting(cold), value.length))
        .as("a unit written past the cache")
        .isFalse();

    assertThat(wholeReadIsMapped(files, cold, value))
        .as("a cold unit is read into a buffer, not mapped")
        .isFalse();
    assertThat(cached(files.pathForTesting(cold), value.length))
        .as("after a whole-unit read")
        .isFalse();

    ByteBuf part = files.read(cold, value.length, ByteBufAllocator.DEFAULT, false);
    part.release();
    assertThat(cached(files.pathForTesting(cold), value.length))
        .as("after a read of part of the unit")
        .isTrue();
    assertThat(wholeReadIsMapped(files, cold, value))
        .as("a cached unit is replied from the cache")
        .isTrue();
  }

  /** Reads a whole unit as a streaming reader does, checks its bytes; whether it came mapped. */
  private static boolean wholeReadIsMapped(ValueFiles files, ValueFiles.Ref ref, byte[] expected)
      throws Exception {
    ByteBuf got = files.read(ref, expected.length, ByteBufAllocator.DEFAULT, true);
    try {
      assertThat(copy(got)).isEqualTo(expected);
      return got instanceof MappedValue;
    } finally {
      got.release();
    }
  }

  /**
   * Where the file system refuses direct reads, a whole-unit read still gets its bytes (mapped).
   */
  @Test
  void aFileSystemThatRefusesDirectReadsGetsWholeUnitsThroughThePageCache() throws Exception {
    byte[] value = bytes(UNIT + 4, 4);
    ValueFiles.Ref ref =
        new ValueFiles(dir.resolve("refusing"), DIRECT_IO)
            .write(
                new ShardId(63, 0, 0), 0, new ByteBuffer[] {ByteBuffer.wrap(value)}, false, true);
    ValueFiles refusing = new ValueFiles(dir.resolve("refusing"), DIRECT_IO, new OpenOption() {});
    for (int i = 0; i < 2; i++) {
      assertThat(wholeReadIsMapped(refusing, ref, value)).as("read %d: mapped", i).isTrue();
    }
  }

  /** Whether every page of the file's first {@code length} bytes is in the page cache (mincore). */
  private static boolean cached(Path file, int length) throws Exception {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, length);
      boolean loaded = m.isLoaded();
      PlatformDependent.freeDirectBuffer(m);
      return loaded;
    }
  }

  private static byte[] copy(ByteBuf buf) {
    byte[] b = new byte[buf.readableBytes()];
    buf.getBytes(buf.readerIndex(), b);
    return b;
  }

  private static byte[] readAll(ValueFiles files, ValueFiles.Ref ref, int length) throws Exception {
    ByteBuf got = files.read(ref, length, ByteBufAllocator.DEFAULT, true);
    try {
      return copy(got);
    } finally {
      got.release();
    }
  }

  @Test
  void overwritesKeepOnlyTheLiveUnitsOnDisk() throws Exception {
    byte[] unit = bytes(1 << 20, 3);
    for (int round = 0; round < 32; round++) {
      for (int u = 0; u < 8; u++) {
        store.write(List.of(put(new ShardId(41, 0, u), 0, unit, true)), false);
      }
    }
    // 256 MiB written; 8 MiB live. What stays beside them is RocksDB's small bookkeeping, and
    // the file of the last unit replaced, kept to hold the next one.
    assertThat(valueFiles()).hasSize(8);
    assertThat(spareFiles()).as("each replaced file held the next unit").hasSize(1);
    assertThat(bytesOnDisk())
        .as("bytes under the store after 256 MiB of overwrites")
        .isLessThan(24L << 20);
    assertThat(store.usedBytes())
        .as("the live units and a little bookkeeping")
        .isBetween(8L << 20, 10L << 20);
  }

  /**
   * A removed unit's file is reused for a new one, but never while a read still maps it: the reply
   * being sent from that mapping would change under it.
   */
  @Test
  void aFileAReadStillHoldsIsNeverWrittenOverByTheUnitsThatReplaceIt() throws Exception {
    ShardId id = new ShardId(46, 0, 0);
    store.write(List.of(put(id, 0, bytes(UNIT, 1), true)), false);
    ByteBuf held = store.read(id, 10, 100); // part of a unit: served from a mapping of its file
    try {
      for (int v = 2; v < 20; v++) {
        store.write(List.of(put(id, 0, bytes(UNIT, v), true)), false);
        store.write(List.of(put(new ShardId(46, v, 0), 0, bytes(UNIT, -v), true)), false);
      }
      assertThat(copy(held))
          .as("the held reply, after its file was replaced 18 times")
          .isEqualTo(Arrays.copyOfRange(bytes(UNIT, 1), 10, 110));
    } finally {
      held.release();
    }
    assertThat(read(id, 0, UNIT)).isEqualTo(bytes(UNIT, 19));
    for (int v = 2; v < 20; v++) {
      assertThat(read(new ShardId(46, v, 0), 0, UNIT)).isEqualTo(bytes(UNIT, -v));
    }
  }

  @Test
  void aShortUnitWrittenIntoALongerSpareFileReadsBackExactlyAndTheFileShrinksToIt()
      throws Exception {
    ShardId big = new ShardId(47, 0, 0);
    store.write(List.of(put(big, 0, bytes(1 << 20, 1), true)), false);
    store.deleteFile(47);
    assertThat(spareFiles()).hasSize(1);
    ShardId small = new ShardId(48, 0, 0);
    store.write(List.of(put(small, 0, bytes(UNIT, 2), true)), false);
    assertThat(spareFiles()).as("the spare now holds the new unit").isEmpty();
    assertThat(read(small, 0, UNIT)).isEqualTo(bytes(UNIT, 2));
    assertThat(Files.size(valueFiles().get(0)))
        .as("checksum and bytes, perhaps padded to a block: no old tail")
        .isLessThan(UNIT + 4096L + 4);
    assertThat(store.usedBytes()).isLessThan(UNIT + (1L << 20) / 2);
  }

  @Test
  void aValueFileNoVersionNamesIsRemovedAtTheNextStart() throws Exception {
    ShardId kept = new ShardId(42, 0, 0);
    store.write(List.of(put(kept, 0, bytes(UNIT, 1), true)), false);
    Path file = valueFiles().get(0);
    store.close();
    // a write that never committed, and a replaced value whose delete a crash cut short
    String[] name = file.getFileName().toString().split("\\.");
    Path uncommitted = file.resolveSibling("42.7.0.0.999");
    Path replaced = file.resolveSibling("42.0.0.0." + (Long.parseLong(name[4]) + 1));
    Files.copy(file, uncommitted);
    Files.copy(file, replaced);
    store = openStore();
    assertThat(valueFiles()).containsExactly(file);
    assertThat(read(kept, 0, UNIT)).isEqualTo(bytes(UNIT, 1));
    assertThat(store.usedBytes()).isGreaterThanOrEqualTo(UNIT);

    store.write(List.of(put(new ShardId(42, 7, 0), 0, bytes(UNIT, 2), true)), false);
    assertThat(read(new ShardId(42, 7, 0), 0, UNIT))
        .as("a later write is named past every file seen")
        .isEqualTo(bytes(UNIT, 2));
  }

  @Test
  void aValueFileLostFromUnderTheStoreIsACorruptShardTheScrubberReports() throws Exception {
    ShardId lost = new ShardId(43, 0, 0);
    ShardId sound = new ShardId(43, 0, 1);
    store.write(
        List.of(put(lost, 0, bytes(UNIT, 1), true), put(sound, 0, bytes(UNIT, 2), true)), false);
    store.close();
    for (Path f : valueFiles()) {
      if (f.getFileName().toString().startsWith("43.0.0.")) {
        Files.delete(f); // e.g. a power loss before the file reached the disk
      }
    }
    store = openStore();
    assertThatThrownBy(() -> read(lost, 0, UNIT))
        .isInstanceOf(CorruptShardException.class)
        .hasMessageContaining("lost its value file");
    List<ShardId> corrupt = new ArrayList<>();
    assertThat(store.scrub(null, Long.MAX_VALUE, corrupt, new ArrayList<>())).isNull();
    assertThat(corrupt).containsExactly(lost);
    assertThat(read(sound, 0, UNIT)).isEqualTo(bytes(UNIT, 2));
  }

  @Test
  void aReaderRacingOverwritesSeesOneWholeVersionEveryTime() throws Exception {
    ShardId id = new ShardId(44, 0, 0);
    store.write(List.of(put(id, 0, bytes(UNIT, 0), true)), false);
    AtomicBoolean writing = new AtomicBoolean(true);
    CompletableFuture<Void> writer =
        CompletableFuture.runAsync(
            () -> {
              try {
                for (int v = 1; v <= 400; v++) {
                  store.write(List.of(put(id, 0, bytes(UNIT, v), true)), false);
                }
              } catch (Exception e) {
                throw new RuntimeException(e);
              } finally {
                writing.set(false);
              }
            });
    int reads = 0;
    while (writing.get() || reads == 0) {
      ByteBuf got = store.read(id, 0, UNIT);
      assertThat(got).as("a replaced file never reads as missing").isNotNull();
      byte[] b = new byte[got.readableBytes()];
      got.readBytes(b);
      got.release();
      // bytes(n, seed)[i] = i * 31 + seed: one seed throughout means one whole version
      int seed = b[0];
      assertThat(b).isEqualTo(bytes(UNIT, seed));
      reads++;
    }
    writer.get(30, TimeUnit.SECONDS);
    assertThat(reads).isPositive();
  }

  private long mappedValueFiles() throws Exception {
    Path values = dir.resolve("values").toAbsolutePath();
    return UnpackedLibraries.mappedFiles().stream().filter(f -> f.startsWith(values)).count();
  }

  @Test
  void aReadKeepsItsFileMappedOnlyUntilTheReplyIsReleased() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(
        Files.isReadable(Path.of("/proc/self/maps")), "needs /proc");
    ShardId id = new ShardId(45, 0, 0);
    store.write(List.of(put(id, 0, bytes(UNIT, 1), true)), false);
    ByteBuf held = store.read(id, 10, 100);
    assertThat(mappedValueFiles()).as("the reply reads from the mapping").isEqualTo(1);
    for (int i = 0; i < 200; i++) {
      assertThat(read(id, 0, UNIT)).isEqualTo(bytes(UNIT, 1));
    }
    assertThat(mappedValueFiles())
        .as("released replies are unmapped at once, not at some GC")
        .isEqualTo(1);
    held.release();
    assertThat(mappedValueFiles()).isZero();
  }
}
