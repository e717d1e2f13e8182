package io.tessera.data.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocksShardStoreTest {
  @TempDir Path dir;
  RocksShardStore store;

  @BeforeEach
  void open() throws Exception {
    store = openStore();
  }

  /** The store under test, opened on {@link #dir}. */
  RocksShardStore openStore() throws Exception {
    return new RocksShardStore(dir);
  }

  @AfterEach
  void close() {
    store.close();
  }

  static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  /** What a reader of the range sees: stored bytes, then zeros; null when the shard is absent. */
  byte[] read(ShardId id, int off, int len) throws Exception {
    ByteBuf got = store.read(id, off, len);
    if (got == null) {
      return null;
    }
    byte[] out = new byte[len];
    got.readBytes(out, 0, got.readableBytes());
    got.release();
    return out;
  }

  private byte[] readAt(ShardId id, int off, int len, long epoch) throws Exception {
    ByteBuf b = store.read(id, off, len, epoch);
    if (b == null) {
      return null;
    }
    try {
      byte[] out = new byte[b.readableBytes()];
      b.readBytes(out);
      return out;
    } finally {
      b.release();
    }
  }

  static ShardWrite put(ShardId id, int offset, byte[] data, boolean whole) {
    return new ShardWrite(id, offset, Unpooled.wrappedBuffer(data), whole);
  }

  @Test
  void aPartialWriteKeepsTheRestOfTheUnitAndHolesReadAsZeros() throws Exception {
    ShardId id = new ShardId(1, 0, 0);
    byte[] whole = bytes(8192, 1);
    store.write(List.of(put(id, 0, whole, true)), false);
    byte[] patch = bytes(100, 7);
    store.write(List.of(put(id, 1000, patch, false)), false);
    byte[] expect = whole.clone();
    System.arraycopy(patch, 0, expect, 1000, 100);
    assertThat(read(id, 0, 8192)).isEqualTo(expect);

    ShardId sparse = new ShardId(1, 0, 1);
    store.write(List.of(put(sparse, 5000, patch, false)), false);
    byte[] got = read(sparse, 4990, 120);
    assertThat(Arrays.copyOfRange(got, 0, 10)).containsOnly(0);
    assertThat(Arrays.copyOfRange(got, 10, 110)).isEqualTo(patch);
    assertThat(Arrays.copyOfRange(got, 110, 120)).as("past the stored end").containsOnly(0);
    assertThat(read(new ShardId(1, 9, 9), 0, 10)).as("never written").isNull();
  }

  @Test
  void writesOfOneRequestLandTogetherAndSurviveReopening() throws Exception {
    byte[] a = bytes(4096, 2);
    byte[] b = bytes(4096, 3);
    store.write(
        List.of(put(new ShardId(5, 0, 0), 0, a, true), put(new ShardId(5, 1, 2), 0, b, true)),
        true);
    store.close();
    store = openStore();
    assertThat(read(new ShardId(5, 0, 0), 0, 4096)).isEqualTo(a);
    assertThat(read(new ShardId(5, 1, 2), 0, 4096)).isEqualTo(b);
  }

  @Test
  void truncateKeepsWhatLiesBelowTheNewEndAndDeleteRemovesTheFile() throws Exception {
    byte[] u = bytes(4096, 4);
    for (int s = 0; s < 3; s++) {
      for (int unit = 0; unit < 2; unit++) {
        store.write(List.of(put(new ShardId(9, s, unit), 0, u, true)), false);
      }
    }
    store.write(List.of(put(new ShardId(10, 0, 0), 0, u, true)), false);
    store.truncateFile(9, 1, new int[] {100, 0});
    assertThat(read(new ShardId(9, 0, 1), 0, 4096)).isEqualTo(u);
    byte[] out = read(new ShardId(9, 1, 0), 0, 4096);
    assertThat(Arrays.copyOfRange(out, 0, 100)).isEqualTo(Arrays.copyOfRange(u, 0, 100));
    assertThat(Arrays.copyOfRange(out, 100, 4096)).containsOnly(0);
    assertThat(read(new ShardId(9, 1, 1), 0, 10)).isNull();
    assertThat(read(new ShardId(9, 2, 0), 0, 10)).isNull();

    store.deleteFile(9);
    assertThat(read(new ShardId(9, 0, 0), 0, 10)).isNull();
    assertThat(read(new ShardId(10, 0, 0), 0, 10))
        .as("the neighbour file is untouched")
        .isNotNull();
  }

  @Test
  void removingFilesOfManyShardsOrOfFewInOneRequestLeavesTheirNeighboursWhole() throws Exception {
    byte[] u = bytes(64, 3);
    store.write(List.of(put(new ShardId(29, 0, 0), 0, u, true)), false);
    for (int s = 0; s < 1100; s++) { // past the point where one range tombstone is cheaper
      store.write(List.of(put(new ShardId(30, s, 0), 0, u, true)), false);
    }
    store.write(
        List.of(put(new ShardId(31, 0, 0), 0, u, true), put(new ShardId(31, 1, 2), 0, u, true)),
        false);
    store.write(List.of(put(new ShardId(32, 0, 0), 0, u, true)), false);

    store.deleteFiles(List.of(33L, 31L, 30L)); // 33: never written here

    for (long gone : new long[] {30, 31, 33}) {
      assertThat(store.layoutFloor(gone))
          .as("file %d refuses requests from now on", gone)
          .isEqualTo(ShardStore.FILE_DELETED);
    }
    assertThat(store.layoutFloor(32)).isZero();
    assertThat(read(new ShardId(30, 0, 0), 0, 64)).isNull();
    assertThat(read(new ShardId(30, 1099, 0), 0, 64)).isNull();
    assertThat(read(new ShardId(31, 1, 2), 0, 64)).isNull();
    assertThat(read(new ShardId(29, 0, 0), 0, 64)).as("the file before").isEqualTo(u);
    assertThat(read(new ShardId(32, 0, 0), 0, 64)).as("the file after").isEqualTo(u);
  }

  @Test
  void writesAtANewEpochReplaceTheOldVersion() throws Exception {
    ShardId id = new ShardId(3, 0, 0);
    store.write(List.of(put(id, 0, bytes(4096, 5), true)), false);
    store.setEpochState(new EpochState(1, new long[0]));
    store.write(List.of(put(id, 10, bytes(10, 6), false)), false);
    byte[] expect = bytes(4096, 5);
    System.arraycopy(bytes(10, 6), 0, expect, 10, 10);
    assertThat(read(id, 0, 4096)).isEqualTo(expect);
    assertThat(readAt(id, 0, 4096, 0)).as("no snapshot keeps epoch 0's version").isNull();
  }

  @Test
  void aWriteStampedWithItsLocksEpochLandsInTheSnapshotItBelongsToEvenAfterTheCommit()
      throws Exception {
    ShardId id = new ShardId(4, 0, 0);
    store.setEpochState(new EpochState(3, new long[] {1}));
    store.write(List.of(put(id, 0, bytes(4096, 1), true)), false); // at 3
    store.setEpochState(new EpochState(4, new long[] {1, 3})); // snapshot 3 committed
    // the writer's locks were granted at 3: its units belong to snapshot 3 though they land now
    store.write(List.of(put(id, 0, bytes(4096, 2), true)), WriteBookkeeping.NONE, 3, false);
    assertThat(readAt(id, 0, 4096, 3)).isEqualTo(bytes(4096, 2));
    assertThat(read(id, 0, 4096)).isEqualTo(bytes(4096, 2));
    store.write(List.of(put(id, 0, bytes(4096, 3), true)), false); // at 4: redirect-on-write
    assertThat(readAt(id, 0, 4096, 3)).isEqualTo(bytes(4096, 2));
    assertThatThrownBy(
            () ->
                store.write(
                    List.of(put(id, 0, bytes(10, 4), true)), WriteBookkeeping.NONE, 3, false))
        .as("a version newer than the write's epoch: its lock cannot have been held")
        .hasMessageContaining("newer");
  }

  /**
   * A server that missed a truncate keeps the unit it held; recovery makes it the hole the other
   * servers have. Left stored (as zeros or old bytes), it stood beside parity the others never
   * wrote, and fsck counted that parity missing for good.
   */
  @Test
  void aHoleWriteLeavesTheUnitAbsentWhileASnapshotKeepsWhatItSaw() throws Exception {
    ShardId plain = new ShardId(30, 0, 0);
    ShardId kept = new ShardId(30, 1, 0);
    ShardId never = new ShardId(30, 2, 0);
    store.write(
        List.of(put(plain, 0, bytes(4096, 1), true), put(kept, 0, bytes(4096, 2), true)), false);
    store.write(List.of(ShardWrite.hole(plain), ShardWrite.hole(never)), false);
    assertThat(read(plain, 0, 4096)).as("a unit made a hole").isNull();
    assertThat(store.versionAt(plain, Long.MAX_VALUE))
        .as("nothing left, not even a tombstone")
        .isEqualTo(ShardStore.NO_VERSION);
    assertThat(store.versionAt(never, Long.MAX_VALUE))
        .as("a hole where nothing was")
        .isEqualTo(ShardStore.NO_VERSION);

    store.setEpochState(new EpochState(1, new long[] {0})); // snapshot at epoch 0
    store.write(List.of(ShardWrite.hole(kept)), false);
    assertThat(read(kept, 0, 4096)).as("live: a hole").isNull();
    assertThat(readAt(kept, 0, 4096, 0)).as("what the snapshot saw").isEqualTo(bytes(4096, 2));
  }

  @Test
  void theVersionAtAnEpochIsTheNewestAtOrBelowItAndATruncationCounts() throws Exception {
    ShardId id = new ShardId(6, 0, 0);
    assertThat(store.versionAt(id, Long.MAX_VALUE))
        .as("never written")
        .isEqualTo(ShardStore.NO_VERSION);
    store.setEpochState(new EpochState(2, new long[0]));
    store.write(List.of(put(id, 0, bytes(4096, 1), true)), false); // at 2
    store.setEpochState(new EpochState(5, new long[] {2}));
    store.truncateFile(6, 0, new int[] {0}); // a tombstone at 5
    assertThat(store.versionAt(id, 4)).as("what snapshot 2 reads").isEqualTo(2);
    assertThat(store.versionAt(id, Long.MAX_VALUE)).as("the live one: the truncation").isEqualTo(5);
    assertThat(store.versionAt(id, 1))
        .as("before the first write")
        .isEqualTo(ShardStore.NO_VERSION);
  }

  @Test
  void aWriteStampedPastTheServersEpochKeepsEveryOlderVersionForTheSnapshotItHasNotHeardOf()
      throws Exception {
    ShardId id = new ShardId(5, 0, 0);
    store.setEpochState(new EpochState(2, new long[0]));
    store.write(List.of(put(id, 0, bytes(4096, 1), true)), false); // at 2
    // snapshot 2 was committed; another server granted the writer's lock at 3 already
    store.write(List.of(put(id, 0, bytes(4096, 2), true)), WriteBookkeeping.NONE, 3, false);
    store.setEpochState(new EpochState(3, new long[] {2})); // the COMMIT arrives
    assertThat(readAt(id, 0, 4096, 2)).as("snapshot 2").isEqualTo(bytes(4096, 1));
    assertThat(read(id, 0, 4096)).isEqualTo(bytes(4096, 2));
    store.write(List.of(put(id, 10, bytes(10, 3), false)), false);
    assertThat(readAt(id, 0, 4096, 2)).isEqualTo(bytes(4096, 1));
  }

  @Test
  void aSnapshotKeepsTheVersionsItSawThroughOverwritesTruncatesAndDeletes() throws Exception {
    ShardId a = new ShardId(20, 0, 0);
    ShardId b = new ShardId(20, 1, 0);
    store.write(List.of(put(a, 0, bytes(4096, 1), true), put(b, 0, bytes(4096, 2), true)), false);
    store.setEpochState(new EpochState(1, new long[] {0})); // snapshot at epoch 0 taken
    store.write(List.of(put(a, 0, bytes(4096, 3), true)), false);
    store.truncateFile(20, 0, new int[] {100}); // b goes, a keeps 100 bytes
    assertThat(readAt(a, 0, 4096, Long.MAX_VALUE)).isEqualTo(Arrays.copyOf(bytes(4096, 3), 100));
    assertThat(read(b, 0, 10)).as("truncated away in the live file").isNull();
    assertThat(readAt(a, 0, 4096, 0)).isEqualTo(bytes(4096, 1));
    assertThat(readAt(b, 0, 4096, 0)).isEqualTo(bytes(4096, 2));

    store.setEpochState(new EpochState(2, new long[] {0, 1})); // a second snapshot at epoch 1
    store.deleteFile(20);
    assertThat(read(a, 0, 10)).isNull();
    assertThat(readAt(a, 0, 4096, 1)).isEqualTo(Arrays.copyOf(bytes(4096, 3), 100));
    assertThat(readAt(a, 0, 4096, 0)).isEqualTo(bytes(4096, 1));

    VersionReport usage = store.scanVersions(0, 1, true);
    assertThat(usage.exclusiveBytes()).containsEntry(0L, 4096L + 4096L).containsEntry(1L, 100L);
    assertThat(usage.writtenFiles()).as("file 20 was written at epoch 1").containsExactly(20L);

    store.setEpochState(new EpochState(2, new long[] {1})); // the first snapshot is deleted
    assertThat(store.collectGarbage())
        .as("a's and b's epoch-0 versions, b's two tombstones")
        .isEqualTo(4);
    assertThat(readAt(a, 0, 4096, 1)).isEqualTo(Arrays.copyOf(bytes(4096, 3), 100));
    assertThat(readAt(b, 0, 10, 1)).isNull();
    store.setEpochState(new EpochState(2, new long[0])); // and the second
    assertThat(store.collectGarbage()).as("a's epoch-1 version and its tombstone").isEqualTo(2);
    assertThat(store.scanVersions(0, 5, true).writtenFiles()).isEmpty();
  }

  @Test
  void theScrubberTellsACorruptLiveShardFromACorruptVersionKeptOnlyForASnapshot() throws Exception {
    ShardId live = new ShardId(21, 0, 0);
    ShardId kept = new ShardId(22, 0, 0);
    store.write(
        List.of(put(live, 0, bytes(4096, 1), true), put(kept, 0, bytes(4096, 2), true)), false);
    store.setEpochState(new EpochState(1, new long[] {0})); // snapshot at epoch 0 taken
    store.write(List.of(put(kept, 0, bytes(4096, 3), true)), false);
    store.damageForTesting(live, 0);
    store.damageForTesting(kept, 0);

    List<ShardId> corrupt = new ArrayList<>();
    List<String> snapshotOnly = new ArrayList<>();
    byte[] cursor = null;
    do {
      cursor = store.scrub(cursor, 1 << 20, corrupt, snapshotOnly);
    } while (cursor != null);
    assertThat(corrupt).as("rebuilding the live shard mends it").containsExactly(live);
    assertThat(snapshotOnly)
        .as("rebuilding would not: the live version is sound")
        .containsExactly(kept + " at epoch 0");
  }

  /**
   * A rebuild first truncates the server it rebuilds to the file's size; a corrupt unit in the
   * stripe the size cuts failed that truncate, and so every rebuild meant to rewrite it.
   */
  @Test
  void aTruncateCuttingACorruptUnitLeavesItCorruptAndCutsTheRest() throws Exception {
    ShardId corrupt = new ShardId(23, 0, 0);
    ShardId sound = new ShardId(23, 0, 1);
    store.write(
        List.of(put(corrupt, 0, bytes(4096, 1), true), put(sound, 0, bytes(4096, 2), true)), false);
    store.damageForTesting(corrupt, 0);
    store.truncateFile(23, 0, new int[] {100, 100});
    assertThat(read(sound, 0, 4096))
        .isEqualTo(Arrays.copyOf(Arrays.copyOf(bytes(4096, 2), 100), 4096));
    assertThatThrownBy(() -> read(corrupt, 0, 4096))
        .as("still corrupt, still read around")
        .isInstanceOf(CorruptShardException.class);
  }

  private void writeAround(long fileId, String skipped, boolean staleMarked) throws Exception {
    ShardWrite w =
        new ShardWrite(
            new ShardId(fileId, 0, 0), 0, Unpooled.wrappedBuffer(bytes(64, (int) fileId)), true);
    store.write(
        List.of(w), new WriteBookkeeping(null, fileId, List.of(skipped), staleMarked), false);
  }

  @Test
  void aWriteAroundAServerNobodyRecordedAsStaleIsRefusedAndLeavesNothingBehind() throws Exception {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> writeAround(7, "ds-3", false))
        .isInstanceOf(UnrecordedSkipException.class)
        .hasMessageContaining("ds-3");
    assertThat(read(new ShardId(7, 0, 0), 0, 64)).as("nothing applied").isNull();
    assertThat(store.dirtyServers(7)).isEmpty();

    writeAround(7, "ds-3", true); // the writer recorded ds-3 as stale in the meta group
    writeAround(7, "ds-3", false); // later writes around it find the entry
    assertThat(store.dirtyServers(7)).containsExactly("ds-3");
    assertThat(read(new ShardId(7, 0, 0), 0, 64)).isEqualTo(bytes(64, 7));
  }

  @Test
  void rebuildClearsOnlyEntriesNoWriteTouchedSinceItLooked() throws Exception {
    writeAround(7, "ds-3", true);
    writeAround(8, "ds-3", true);
    List<DirtyFile> seen = store.dirtyFiles("ds-3", -1);
    assertThat(seen).extracting(DirtyFile::fileId).containsExactly(7L, 8L);
    writeAround(8, "ds-3", false); // file 8 written around ds-3 again while it was rebuilt

    assertThat(store.clearDirty("ds-3", seen)).isEqualTo(1);
    assertThat(store.dirtyFiles("ds-3", -1)).extracting(DirtyFile::fileId).containsExactly(8L);
    assertThat(store.dirtyServers(7)).isEmpty();
    assertThat(store.dirtyServers(8)).containsExactly("ds-3");

    store.close();
    store = openStore(); // the log and its index survive a restart
    assertThat(store.dirtyServers(8)).containsExactly("ds-3");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> writeAround(7, "ds-3", false))
        .isInstanceOf(UnrecordedSkipException.class);
  }

  @Test
  void aLayoutFenceOnlyRisesAndSurvivesARestart() throws Exception {
    assertThat(store.layoutFloor(12)).as("a file never moved accepts any layout").isZero();
    store.fenceLayout(12, 3);
    store.fenceLayout(12, 2); // a late, older fence never lowers it
    assertThat(store.layoutFloor(12)).isEqualTo(3);
    assertThat(store.layoutFloor(13)).isZero();

    store.close();
    store = openStore();
    assertThat(store.layoutFloor(12))
        .as("a restarted server still refuses the old layout")
        .isEqualTo(3);
  }

  /**
   * A writer that still holds a removed file's layout must not store shards after the file was
   * deleted here: nobody would ever reclaim them. Every later request for it is refused (across
   * restarts), and a write the server admitted just before the delete removes itself.
   */
  @Test
  void aDeletedFileRefusesLaterRequestsAndAWriteThatRacedTheDeleteLeavesNothing() throws Exception {
    ShardId id = new ShardId(14, 0, 0);
    store.write(List.of(put(id, 0, bytes(4096, 1), true)), false);
    store.fenceLayout(14, 2);
    store.deleteFile(14);
    assertThat(store.layoutFloor(14))
        .as("every layout of a deleted file is refused")
        .isEqualTo(ShardStore.FILE_DELETED);
    store.fenceLayout(14, 3); // a late move of it changes nothing
    assertThat(store.layoutFloor(15)).as("other files").isZero();

    // admitted before the delete, committed after it: stores, then finds the file deleted
    store.write(
        List.of(
            put(id, 0, bytes(4096, 2), true), put(new ShardId(14, 1, 0), 0, bytes(4096, 3), true)),
        false);
    for (ShardId late : List.of(id, new ShardId(14, 1, 0))) {
      assertThat(read(late, 0, 4096)).as("the late write's %s", late).isNull();
      assertThat(store.versionAt(late, Long.MAX_VALUE))
          .as("versions of %s kept", late)
          .isEqualTo(ShardStore.NO_VERSION);
    }

    store.close();
    store = openStore();
    assertThat(store.layoutFloor(14)).as("after a restart").isEqualTo(ShardStore.FILE_DELETED);
  }

  /**
   * Recovery moves a file's units off a server and drops the copy left there; the file lives on and
   * may be placed on this server again (a decommissioned server taken back): its requests must then
   * be served, not refused as those of a removed file.
   */
  @Test
  void aCopyDroppedAfterAMoveLeavesTheFileWelcomeBack() throws Exception {
    ShardId id = new ShardId(16, 0, 0);
    store.write(List.of(put(id, 0, bytes(4096, 1), true)), false);
    store.fenceLayout(16, 1);
    store.dropCopy(16);
    assertThat(read(id, 0, 4096)).as("the dropped copy").isNull();
    assertThat(store.layoutFloor(16)).as("only the old layout is refused").isEqualTo(1);

    store.fenceLayout(16, 2); // moved back here
    store.write(List.of(put(id, 0, bytes(4096, 2), true)), false);
    assertThat(read(id, 0, 4096)).as("written after it came back").isEqualTo(bytes(4096, 2));
  }
}
