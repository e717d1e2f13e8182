package io.tessera.data.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.netty.buffer.Unpooled;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.data.store.DirtyFile;
import io.tessera.data.store.RocksShardStore;
import io.tessera.data.store.ShardId;
import io.tessera.data.store.ShardWrite;
import io.tessera.data.store.WriteBookkeeping;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StripeLockTableTest {
  private static final ByteString ALICE = ByteString.copyFromUtf8("alice-client-id!");
  private static final ByteString BOB = ByteString.copyFromUtf8("bob-client-id---");

  @TempDir Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000_000L);

  /** A table with leases of up to a minute, renewed up to ten, on the test's clock. */
  private StripeLockTable table(RocksShardStore store) throws Exception {
    return new StripeLockTable(store, Duration.ofSeconds(60), Duration.ofMinutes(10), clock::get);
  }

  private static StripeLockProto lock(long first, int count, long op) {
    return StripeLockProto.newBuilder()
        .setFileId(7)
        .setFirstStripe(first)
        .setStripeCount(count)
        .setOperation(op)
        .setLeaseMs(1000)
        .build();
  }

  @Test
  void overlappingLocksOfAnotherWriterAreRefusedUntilReleased() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      assertThat(table.tryLock(lock(10, 5, 1), ALICE, false, 0))
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.tryLock(lock(14, 3, 2), BOB, false, 0))
          .isInstanceOf(StripeLockTable.Refused.class);
      assertThat(table.tryLock(lock(15, 3, 2), BOB, false, 0))
          .as("adjacent, not overlapping")
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.tryLock(lock(10, 1, 1), ALICE, false, 0))
          .as("the same writer asking again")
          .isInstanceOf(StripeLockTable.Granted.class);
      table.release(lock(10, 5, 1), ALICE);
      assertThat(table.tryLock(lock(12, 1, 3), BOB, false, 0))
          .isInstanceOf(StripeLockTable.Granted.class);
    }
  }

  @Test
  void aRebuildLearnsWhetherAWriterWaitedOnItsLockSoThatItPausesOnlyForLocksThatCostWritersTime()
      throws Exception {
    ByteString coordinator = RecoveryIdentity.newClientId();
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      StripeLockProto quietChunk = lock(0, 4, 1);
      StripeLockProto busyChunk = lock(4, 4, 2);
      table.tryLock(quietChunk, coordinator, true, 0);
      table.tryLock(busyChunk, coordinator, true, 0);
      assertThat(table.tryLock(lock(8, 2, 3), ALICE, false, 0))
          .as("next to both, overlapping neither")
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.tryLock(lock(5, 1, 4), BOB, false, 0))
          .isInstanceOf(StripeLockTable.Refused.class);

      assertThat(table.writersRefused(quietChunk, coordinator)).isFalse();
      assertThat(table.writersRefused(busyChunk, coordinator)).isTrue();
      table.release(busyChunk, coordinator);
      assertThat(table.writersRefused(busyChunk, coordinator))
          .as("released: nothing to report")
          .isFalse();
      assertThat(table.tryLock(lock(0, 8, 5), coordinator, true, 0))
          .as("the coordinator's own overlapping lock")
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.writersRefused(quietChunk, coordinator))
          .as("recovery is no writer")
          .isFalse();
    }
  }

  @Test
  void aRebuildsLockOnAFileWritersJustUsedCountsAsWaitedOnButOneOnAQuietFileDoesNot()
      throws Exception {
    ByteString coordinator = RecoveryIdentity.newClientId();
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 1, 1), ALICE, false, 0);
      table.release(lock(0, 1, 1), ALICE);
      clock.addAndGet(Duration.ofMillis(40).toNanos()); // Alice backs off before her next write

      StripeLockProto wholeFile = lock(0, 1 << 10, 2);
      table.tryLock(wholeFile, coordinator, true, 0);
      assertThat(table.writersRefused(wholeFile, coordinator))
          .as("Alice was writing the file a moment ago: her next write waits for this lock")
          .isTrue();
      table.release(wholeFile, coordinator);

      clock.addAndGet(Duration.ofSeconds(5).toNanos()); // Alice is done with the file
      StripeLockProto later = lock(0, 1 << 10, 3);
      table.tryLock(later, coordinator, true, 0);
      assertThat(table.writersRefused(later, coordinator))
          .as("nobody has written the file for seconds: the move cost no writer time")
          .isFalse();
    }
  }

  @Test
  void aRebuildsChunkLockBehindAnAppendersTailCostsTheAppenderNothing() throws Exception {
    ByteString coordinator = RecoveryIdentity.newClientId();
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      // Alice appends: each write locks the stripe at the end of the file
      for (long stripe = 900; stripe < 905; stripe++) {
        table.tryLock(lock(stripe, 1, stripe), ALICE, false, 0);
        table.release(lock(stripe, 1, stripe), ALICE);
        clock.addAndGet(Duration.ofMillis(20).toNanos());
      }

      StripeLockProto earlyChunk = lock(0, 64, 2_000);
      table.tryLock(earlyChunk, coordinator, true, 0);
      assertThat(table.writersRefused(earlyChunk, coordinator))
          .as("the rebuild copies stripes far behind Alice's tail: she never waits for them")
          .isFalse();
      table.release(earlyChunk, coordinator);

      StripeLockProto tailChunk = lock(896, 64, 2_001);
      table.tryLock(tailChunk, coordinator, true, 0);
      assertThat(table.writersRefused(tailChunk, coordinator))
          .as("the rebuild reached the stripes Alice is writing: her next append waits")
          .isTrue();
    }
  }

  @Test
  void aLockWhoseWriterDiedWaitsForRecoveryToRepairItsStripesThenRecoveryTakesItOver()
      throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1), ALICE, false, 0);
      clock.addAndGet(Duration.ofMillis(999).toNanos());
      assertThat(table.orphans(64)).isEmpty();
      assertThat(table.tryLock(lock(0, 1, 2), BOB, false, 0))
          .isInstanceOf(StripeLockTable.Refused.class);
      clock.addAndGet(Duration.ofMillis(2).toNanos());
      assertThat(table.orphans(64))
          .singleElement()
          .satisfies(
              o -> {
                assertThat(o.getFirstStripe()).isZero();
                assertThat(o.getStripeCount()).isEqualTo(4);
              });
      assertThat(table.tryLock(lock(0, 1, 2), BOB, false, 0))
          .as("a writer must not build on unrepaired parity")
          .isInstanceOf(StripeLockTable.Refused.class);
      assertThat(table.tryLock(lock(0, 4, 3), BOB, true, 0))
          .as("recovery")
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.orphansTakenOver()).isEqualTo(1);
      assertThat(table.orphans(64)).isEmpty();
    }
  }

  @Test
  void aWriterThatKeepsRenewingWhileTheClusterIsSlowKeepsItsLockPastItsLease() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1), ALICE, false, 0);
      for (int i = 0; i < 30; i++) { // 30 s of queues ahead of Alice's phase 2; 1 s lease
        clock.addAndGet(Duration.ofMillis(400).toNanos());
        assertThat(table.renew(lock(0, 4, 1), ALICE)).isTrue();
      }
      assertThat(table.orphans(64)).as("a writer that renews is no orphan").isEmpty();
      assertThat(table.tryLock(lock(0, 4, 9), BOB, true, 0))
          .as("recovery finds the lock alive")
          .isInstanceOf(StripeLockTable.Refused.class);
      assertThat(table.beginWrite(lock(0, 4, 1), ALICE)).isPresent();
    }
  }

  @Test
  void aWriterThatStopsRenewingLosesItsLockOneLeaseAfterTheLastRenewal() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1), ALICE, false, 0);
      clock.addAndGet(Duration.ofMillis(900).toNanos());
      table.renew(lock(0, 4, 1), ALICE);
      assertThat(table.renew(lock(0, 4, 1), BOB)).as("only its owner renews a lock").isFalse();
      clock.addAndGet(Duration.ofMillis(999).toNanos()); // then Alice died
      assertThat(table.orphans(64)).isEmpty();
      clock.addAndGet(Duration.ofMillis(2).toNanos());
      assertThat(table.orphans(64)).hasSize(1);
      assertThat(table.tryLock(lock(0, 4, 9), BOB, true, 0))
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.renew(lock(0, 4, 1), ALICE))
          .as("a renewal after recovery took the lock over brings nothing back")
          .isFalse();
    }
  }

  @Test
  void renewalsKeepALockNoLongerThanTheLongestHoldAfterItsGrant() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1), ALICE, false, 0);
      for (int i = 0; i < 10 * 60 * 2; i++) { // a writer stuck for ten minutes, still renewing
        clock.addAndGet(Duration.ofMillis(500).toNanos());
        table.renew(lock(0, 4, 1), ALICE);
      }
      clock.addAndGet(Duration.ofMillis(1).toNanos());
      assertThat(table.orphans(64)).as("past tessera.data.max-lock-hold").hasSize(1);
    }
  }

  @Test
  void aPhaseTwoSentAgainAfterItLandedIsKnownAsLandedButAReleasedLockIsNot() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1), ALICE, false, 0);
      table.beginWrite(lock(0, 4, 1), ALICE);
      table.forget(lock(0, 4, 1), ALICE); // phase 2 stored, its reply lost on the way
      assertThat(table.beginWrite(lock(0, 4, 1), ALICE)).as("the lock is gone").isEmpty();
      assertThat(table.landedAlready(lock(0, 4, 1), ALICE)).isTrue();
      assertThat(table.landedAlready(lock(0, 4, 1), BOB)).as("another writer's").isFalse();

      table.tryLock(lock(8, 4, 2), ALICE, false, 0);
      table.release(lock(8, 4, 2), ALICE); // given up without writing
      assertThat(table.landedAlready(lock(8, 4, 2), ALICE)).isFalse();
    }
  }

  @Test
  void whenTheMetaLeaderDiesMidRebuildItsWritersDoNotWaitOutTheRebuildsLease() throws Exception {
    ByteString deadCoordinator = RecoveryIdentity.newClientId();
    ByteString newCoordinator = RecoveryIdentity.newClientId();
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      // the dead leader's rebuild held this file whole (copy only), and was repairing parity
      // elsewhere
      StripeLockProto rebuild =
          lock(0, 1 << 20, 1).toBuilder().setCopyOnly(true).setLeaseMs(20_000).build();
      StripeLockProto repair =
          StripeLockProto.newBuilder()
              .setFileId(8)
              .setFirstStripe(0)
              .setStripeCount(2)
              .setOperation(2)
              .setLeaseMs(20_000)
              .build();
      table.tryLock(rebuild, deadCoordinator, true, 0);
      table.tryLock(repair, deadCoordinator, true, 0);
      table.learnCoordinator(deadCoordinator); // still the leader's: nothing changes
      assertThat(table.tryLock(lock(3, 1, 3), ALICE, false, 0))
          .isInstanceOf(StripeLockTable.Refused.class);
      assertThat(table.orphans(64)).isEmpty();

      table.learnCoordinator(newCoordinator);
      assertThat(table.tryLock(lock(3, 1, 3), ALICE, false, 0))
          .as("a writer of the file being rebuilt")
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.orphans(64))
          .as("the half-done parity repair, for the new coordinator to finish")
          .singleElement()
          .satisfies(o -> assertThat(o.getFileId()).isEqualTo(8));
      assertThat(
              table.tryLock(repair.toBuilder().setFileId(8).setOperation(4).build(), BOB, false, 0))
          .as("a writer must not build on the unrepaired parity")
          .isInstanceOf(StripeLockTable.Refused.class);
    }
  }

  @Test
  void aCopyOnlyLockOfAWriterIsNotDroppedLikeARebuildsOne() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1).toBuilder().setCopyOnly(true).build(), ALICE, false, 0);
      table.learnCoordinator(RecoveryIdentity.newClientId());
      assertThat(table.tryLock(lock(0, 1, 2), BOB, false, 0))
          .isInstanceOf(StripeLockTable.Refused.class);
    }
  }

  @Test
  void aWriterThatComesBackAfterRecoveryTookItsExpiredLockOverMayNotStoreItsPhaseTwo()
      throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1), ALICE, false, 0);
      clock.addAndGet(Duration.ofSeconds(2).toNanos()); // Alice paused past her lease
      assertThat(table.tryLock(lock(0, 4, 9), BOB, true, 0))
          .as("recovery repairs the orphan")
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.beginWrite(lock(0, 4, 1), ALICE))
          .as("her late phase 2 is refused")
          .isEmpty();
    }
  }

  @Test
  void anExpiredLockWhosePhaseTwoIsBeingStoredIsNotTakenOverMeanwhile() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(0, 4, 1), ALICE, false, 0);
      clock.addAndGet(Duration.ofSeconds(2).toNanos());
      assertThat(table.beginWrite(lock(0, 4, 1), ALICE))
          .as("late, but nobody took the lock over")
          .isPresent();
      assertThat(table.tryLock(lock(0, 4, 9), BOB, true, 0))
          .isInstanceOf(StripeLockTable.Refused.class);
      table.endWrite(lock(0, 4, 1), ALICE);
      assertThat(table.tryLock(lock(0, 4, 9), BOB, true, 0))
          .as("the write did not land: recovery repairs")
          .isInstanceOf(StripeLockTable.Granted.class);
    }
  }

  @Test
  void aRestartedServerStillGuardsTheStripesItHadLocked() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      table(store).tryLock(lock(3, 2, 1), ALICE, false, 0);
    }
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      assertThat(table.size()).isEqualTo(1);
      assertThat(table.tryLock(lock(4, 1, 2), BOB, false, 0))
          .isInstanceOf(StripeLockTable.Refused.class);
    }
  }

  @Test
  void
      aRebuildTakesOverTheLocksWritersLeftOnARestartedServerWhoseUnitsAreStaleInsteadOfWaitingOutTheirLease()
          throws Exception {
    ByteString coordinator = RecoveryIdentity.newClientId();
    StripeLockProto rebuild =
        lock(0, 1 << 20, 9).toBuilder().setCopyOnly(true).setLeaseMs(20_000).build();
    try (RocksShardStore store = new RocksShardStore(dir)) {
      // Alice's phase 1 was granted here; the server was SIGKILLed before her phase 2, so she wrote
      // around it
      table(store).tryLock(lock(3, 2, 1), ALICE, false, 0);
    }
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      assertThat(table.tryLock(rebuild, coordinator, true, false, 0))
          .as("locking a server whose units of the file are current")
          .isInstanceOf(StripeLockTable.Refused.class);
      assertThat(
              table.tryLock(
                  rebuild.toBuilder().setCopyOnly(false).build(), coordinator, true, true, 0))
          .as("a parity repair's lock (not copy only)")
          .isInstanceOf(StripeLockTable.Refused.class);
      assertThat(table.tryLock(rebuild, coordinator, true, true, 0))
          .as("a server whose units are stale: the one it rebuilds, or another")
          .isInstanceOf(StripeLockTable.Granted.class);
      assertThat(table.orphansTakenOver()).as("not an orphan: nothing to repair here").isZero();
      table.release(rebuild, coordinator);
      assertThat(table.size()).isZero();
    }
  }

  @Test
  void aRebuildStillWaitsForALockAWriterTookSinceTheRestart() throws Exception {
    ByteString coordinator = RecoveryIdentity.newClientId();
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(lock(3, 2, 1), ALICE, false, 0);
      StripeLockProto rebuild =
          lock(0, 1 << 20, 9).toBuilder().setCopyOnly(true).setLeaseMs(20_000).build();
      assertThat(table.tryLock(rebuild, coordinator, true, true, 0))
          .as("a live writer's: it writes here")
          .isInstanceOf(StripeLockTable.Refused.class);
    }
  }

  @Test
  void aPhaseTwoWriteReleasesItsLockAndLogsMissingServersInTheSameBatch() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      StripeLockProto l = lock(0, 1, 1);
      table.tryLock(l, ALICE, false, 0);
      ShardWrite w =
          new ShardWrite(
              new ShardId(7, 0, 0), 0, Unpooled.wrappedBuffer(new byte[] {1, 2, 3}), false);
      store.write(
          List.of(w),
          new WriteBookkeeping(StripeLockTable.key(l, ALICE), 7, List.of("ds-3", "ds-5"), true),
          false);
      assertThat(table.forget(l, ALICE)).isTrue();
      assertThat(store.locks()).isEmpty();
      assertThat(store.dirtyFiles())
          .extracting(DirtyFile::missingServer, DirtyFile::fileId)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple("ds-3", 7L),
              org.assertj.core.groups.Tuple.tuple("ds-5", 7L));
    }
  }

  @Test
  void aSnapshotReadWaitsOnlyForWritersWhoseLocksWereGrantedAtOrBelowItsEpoch() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      table.tryLock(
          lock(0, 4, 1), ALICE, false, 4); // granted before the snapshot at 4 was committed
      table.tryLock(lock(10, 2, 2), BOB, false, 5); // granted after it
      var aliceStripe = table.whenLanded(List.of(range(2)), 4);
      assertThat(aliceStripe)
          .as("Alice's write belongs to snapshot 4 and has not landed")
          .isNotDone();
      assertThat(table.whenLanded(List.of(range(10)), 4))
          .as("Bob's write is not in snapshot 4")
          .isDone();
      assertThat(table.whenLanded(List.of(range(6)), 4)).as("nobody writes stripe 6").isDone();
      assertThat(table.whenLanded(List.of(range(2)), 3))
          .as("snapshot 3 predates Alice's write")
          .isDone();
      assertThat(table.beginWrite(lock(0, 4, 1), ALICE)).hasValue(4);
      assertThat(table.forget(lock(0, 4, 1), ALICE)).isTrue();
      assertThat(aliceStripe).as("her phase 2 landed").isDone();
    }
  }

  @Test
  void aRestartedServerRemembersTheEpochItGrantedALockAt() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      table(store).tryLock(lock(3, 2, 1), ALICE, false, 6);
    }
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      assertThat(table.whenLanded(List.of(range(4)), 6)).isNotDone();
      assertThat(table.beginWrite(lock(3, 2, 1), ALICE)).hasValue(6);
    }
  }

  private static ShardRangeProto range(long stripe) {
    return ShardRangeProto.newBuilder()
        .setFileId(7)
        .setStripe(stripe)
        .setUnit(0)
        .setLength(10)
        .build();
  }

  @Test
  void malformedLocksAreRefusedWithTheReason() throws Exception {
    try (RocksShardStore store = new RocksShardStore(dir)) {
      StripeLockTable table = table(store);
      assertThatThrownBy(() -> table.tryLock(lock(0, 0, 1), ALICE, false, 0))
          .hasMessageContaining("1 to");
      assertThatThrownBy(() -> table.tryLock(lock(Long.MAX_VALUE, 5, 1), ALICE, false, 0))
          .hasMessageContaining("1 to");
    }
  }
}
