package io.tessera.meta.regions;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.RegionResponseProto;
import io.tessera.common.proto.SharingProto;
import io.tessera.common.region.Region;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RegionTableTest {
  static final ByteString ALICE = ByteString.copyFromUtf8("alice-client-id!");
  static final ByteString BOB = ByteString.copyFromUtf8("bob-client-id---");
  static final long FILE = 42;
  static final long WAIT = Duration.ofSeconds(2).toNanos();

  final AtomicLong clock = new AtomicLong(1_000_000_000L);
  final RegionTable table = new RegionTable(Duration.ofSeconds(10).toNanos(), clock::get);

  @Test
  void writersOfDisjointRegionsNeverWaitForEachOther() {
    assertThat(table.lock(ALICE, FILE, new Region(0, 4096, true), false, 0))
        .isCompletedWithValue(new RegionTable.Granted());
    assertThat(table.lock(BOB, FILE, new Region(4096, 8192, true), false, 0))
        .isCompletedWithValue(new RegionTable.Granted());
    assertThat(table.lock(BOB, FILE, new Region(0, 10, false), false, 0).join())
        .isInstanceOf(RegionTable.Refused.class);
  }

  @Test
  void aCachedRegionIsCalledBackByItsHoldersRenewAndHandedOverWhenGivenBack() {
    table.lock(ALICE, FILE, new Region(0, 1 << 20, true), false, 0);
    CompletableFuture<RegionResponseProto> alicesRenew = table.renew(ALICE, "alice", WAIT);
    assertThat(alicesRenew).as("nothing to tell yet: the renew waits").isNotDone();

    CompletableFuture<RegionTable.Outcome> bobs =
        table.lock(BOB, FILE, new Region(4096, 8192, true), false, WAIT);
    assertThat(bobs).isNotDone();
    assertThat(alicesRenew).as("the call-back answers Alice's renew at once").isDone();
    assertThat(alicesRenew.join().getRecallsList())
        .extracting(Region::of)
        .as("the part Bob asked for")
        .containsExactly(new Region(4096, 8192, true));

    table.unlock(ALICE, FILE, 4096, 8192); // Alice gives back only the part Bob asked for
    assertThat(bobs).isCompletedWithValue(new RegionTable.Granted());
    assertThat(table.lock(ALICE, FILE, new Region(0, 4096, true), false, 0))
        .as("Alice keeps the rest")
        .isCompletedWithValue(new RegionTable.Granted());
  }

  @Test
  void aClientThatStopsRenewingLosesItsLocksToTheClientWaitingForThem() {
    table.lock(ALICE, FILE, new Region(0, 100, true), false, 0);
    CompletableFuture<RegionTable.Outcome> bobs =
        table.lock(BOB, FILE, new Region(0, 100, true), false, WAIT);
    clock.addAndGet(Duration.ofSeconds(1).toNanos());
    table.renew(BOB, "bob", 0); // Bob lives on; Alice was SIGKILLed
    assertThat(table.tick()).isEmpty();
    clock.addAndGet(Duration.ofSeconds(9).toNanos());
    assertThat(table.tick())
        .as("Alice's lease ran out")
        .extracting(RegionTable.Expired::regions)
        .containsExactly(1);
    assertThat(bobs).as("Bob's wait (2 s) ran out first").isDone();

    CompletableFuture<RegionTable.Outcome> again =
        table.lock(BOB, FILE, new Region(0, 100, true), false, WAIT);
    assertThat(again).isCompletedWithValue(new RegionTable.Granted());
  }

  @Test
  void aLockWaitingLongerThanItAskedIsRefusedNamingTheHolder() {
    table.renew(ALICE, "alice on node7 (pid 4242)", 0);
    table.lock(ALICE, FILE, new Region(0, 100, false), false, 0);
    CompletableFuture<RegionTable.Outcome> bobs =
        table.lock(BOB, FILE, new Region(50, 150, true), false, WAIT);
    clock.addAndGet(WAIT);
    table.renew(ALICE, null, 0);
    table.tick();
    assertThat(bobs.join())
        .isInstanceOfSatisfying(
            RegionTable.Refused.class,
            r ->
                assertThat(r.why())
                    .contains("exclusive [50, 150) overlaps shared [50, 100)")
                    .contains("alice on node7 (pid 4242)")
                    .contains("called back"));
  }

  @Test
  void openersWithTheSameIntentShareAFileAndADifferentIntentIsRefusedNamingWhoHoldsWhat() {
    table.renew(ALICE, "alice on node7", 0);
    assertThat(table.open(ALICE, FILE, SharingProto.SHARING_DISJOINT_WRITERS))
        .isEqualTo(new RegionTable.Granted());
    assertThat(table.open(BOB, FILE, SharingProto.SHARING_DISJOINT_WRITERS))
        .isEqualTo(new RegionTable.Granted());
    assertThat(table.open(BOB, FILE, SharingProto.SHARING_EXCLUSIVE))
        .isInstanceOfSatisfying(
            RegionTable.Refused.class,
            r -> assertThat(r.why()).contains("alice on node7 has it open disjoint writers"));

    table.close(ALICE, FILE, SharingProto.SHARING_DISJOINT_WRITERS);
    table.close(BOB, FILE, SharingProto.SHARING_DISJOINT_WRITERS);
    assertThat(table.open(BOB, FILE, SharingProto.SHARING_EXCLUSIVE))
        .isEqualTo(new RegionTable.Granted());
    assertThat(table.open(ALICE, FILE, SharingProto.SHARING_EXCLUSIVE))
        .as("exclusive admits nobody else, even with the same intent")
        .isInstanceOf(RegionTable.Refused.class);
  }

  @Test
  void aRenewOfAClientTheHomeDoesNotKnowSaysSoAtOnceSoTheClientReclaims() {
    assertThat(table.renew(ALICE, "alice", WAIT).join().getUnknownClient()).isTrue();
    assertThat(table.renew(ALICE, "alice", WAIT)).isNotDone();
  }
}
