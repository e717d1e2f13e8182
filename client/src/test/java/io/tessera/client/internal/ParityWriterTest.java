package io.tessera.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.fault.FaultPoints;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto.OpCase;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Parity writes against fake data servers: what phase 1 reads, refusals, a server lost between the
 * phases.
 */
class ParityWriterTest {
  private static final int UNIT = 4096;
  private FakeCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private void write(FileTarget file, long pos, byte[] data) throws Exception {
    cluster
        .writer
        .write(file, pos, data, 0, data.length, false, SizeExtension.NONE)
        .get(30, TimeUnit.SECONDS);
  }

  private byte[] read(FileTarget file, long pos, int len) throws Exception {
    byte[] out = new byte[len];
    cluster.io.read(file, pos, out, 0, len).get(30, TimeUnit.SECONDS);
    return out;
  }

  /** Every range the phase-1 lock requests of a server asked to read. */
  private List<ShardRangeProto> lockReads(FakeDataServer s) {
    return s.requests(OpCase.LOCK_READ).stream()
        .flatMap(r -> r.getLockRead().getReadsList().stream())
        .toList();
  }

  @Test
  void aWholeStripeWriteReadsNothingAndAnyFourUnitsGiveItsBytesBack() throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(1, layout, List.of());
    byte[] stripe = bytes(4 * UNIT, 1);
    write(file, 0, stripe);
    for (FakeDataServer s : cluster.servers.values()) {
      assertThat(lockReads(s)).as("a full stripe needs no old bytes from %s", s.id()).isEmpty();
      assertThat(s.holdsLocks()).isFalse();
    }
    cluster.server(0).stop();
    cluster.server(3).stop();
    assertThat(read(file, 0, stripe.length))
        .as("decoded from the two parity units and two data units")
        .isEqualTo(stripe);
  }

  @Test
  void aSmallWriteIntoAWideStripeReadsTheOldBytesAndParityUnderItOnly() throws Exception {
    cluster = new FakeCluster(9);
    StripeLayout layout = cluster.layout(6, 3, UNIT);
    FileTarget file = new FileTarget(2, layout, List.of());
    byte[] stripe = bytes(6 * UNIT, 2);
    write(file, 0, stripe);
    int before = cluster.servers.values().stream().mapToInt(s -> lockReads(s).size()).sum();
    byte[] patch = bytes(100, 3);
    write(file, 10, patch);
    // read-modify-write: 100 old bytes + 3 x 100 parity bytes < reconstruct-write's 5 x 100
    List<String> readFrom =
        cluster.servers.values().stream()
            .filter(s -> !lockReads(s).isEmpty())
            .map(FakeDataServer::id)
            .toList();
    String dataServer = layout.serverOf(0, 0);
    assertThat(readFrom)
        .containsExactlyInAnyOrder(
            dataServer, layout.serverOf(0, 6), layout.serverOf(0, 7), layout.serverOf(0, 8));
    assertThat(before).isZero();
    for (String s : readFrom) {
      assertThat(lockReads(cluster.servers.get(s)))
          .allSatisfy(
              r -> {
                assertThat(r.getOffset()).isEqualTo(10);
                assertThat(r.getLength()).isEqualTo(100);
              });
    }
    System.arraycopy(patch, 0, stripe, 10, patch.length);
    cluster.server(0).stop();
    cluster.server(1).stop();
    cluster.server(2).stop();
    assertThat(read(file, 0, stripe.length))
        .as("the new parity decodes the patched stripe")
        .isEqualTo(stripe);
  }

  @Test
  void aSmallWriteIntoANarrowStripeReadsTheOtherDataUnitInstead() throws Exception {
    cluster = new FakeCluster(3);
    StripeLayout layout = cluster.layout(2, 1, UNIT);
    FileTarget file = new FileTarget(3, layout, List.of());
    byte[] stripe = bytes(2 * UNIT, 4);
    write(file, 0, stripe);
    byte[] patch = bytes(100, 5);
    write(file, UNIT + 50, patch);
    // reconstruct-write: the other data unit's 100 bytes < 100 old bytes + 100 parity bytes
    List<ShardRangeProto> reads =
        cluster.servers.values().stream().flatMap(s -> lockReads(s).stream()).toList();
    assertThat(reads)
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getUnit()).isZero();
              assertThat(r.getOffset()).isEqualTo(50);
              assertThat(r.getLength()).isEqualTo(100);
            });
    System.arraycopy(patch, 0, stripe, UNIT + 50, patch.length);
    cluster.servers.get(layout.serverOf(0, 1)).stop();
    assertThat(read(file, 0, stripe.length)).isEqualTo(stripe);
  }

  @Test
  void aServerRefusingTheLockIsAskedAgainAndTheWriteLandsWithNoLockLeftBehind() throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(4, layout, List.of());
    cluster.server(2).refuseLocks(2);
    byte[] stripe = bytes(4 * UNIT, 6);
    write(file, 0, stripe);
    assertThat(cluster.server(2).requests(OpCase.LOCK_READ))
        .as("refused twice, granted the third time")
        .hasSize(3);
    assertThat(cluster.counters.lockRefusals.get()).isPositive();
    for (FakeDataServer s : cluster.servers.values()) {
      assertThat(s.holdsLocks()).as("%s released", s.id()).isFalse();
      assertThat(s.requests(OpCase.WRITE)).as("%s got its unit once", s.id()).hasSize(1);
    }
    assertThat(read(file, 0, stripe.length)).isEqualTo(stripe);
  }

  @Test
  void aServerLostBetweenThePhasesIsRecordedStaleAndTheWriteReadsBackAroundIt() throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(5, layout, List.of());
    AtomicBoolean once = new AtomicBoolean();
    FaultPoints.arm(
        ParityWriter.BETWEEN_PHASES,
        cluster,
        () -> {
          if (!once.getAndSet(true)) {
            cluster.server(1).stop();
          }
        });
    try {
      byte[] stripe = bytes(4 * UNIT, 7);
      write(file, 0, stripe);
      List<String> markedStale =
          cluster.metaRequests().stream()
              .filter(MetaRequestProto::hasSetAttr)
              .flatMap(r -> r.getSetAttr().getAddStaleServersList().stream())
              .toList();
      assertThat(markedStale).containsExactly("ds-1");
      assertThat(file.isStale("ds-1")).isTrue();
      assertThat(read(file, 0, stripe.length))
          .as("decoded around the lost server")
          .isEqualTo(stripe);
    } finally {
      FaultPoints.disarmAll(cluster);
    }
  }
}
