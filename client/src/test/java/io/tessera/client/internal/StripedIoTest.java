package io.tessera.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto.OpCase;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.status.TesseraException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Striped reads against fake data servers: which units a healthy and a degraded read fetch. */
class StripedIoTest {
  private static final int UNIT = 4096;
  private static final int STRIPES = 6;
  private FakeCluster cluster;

  @AfterEach
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private byte[] writeStripes(FileTarget file, int seed) throws Exception {
    byte[] data = new byte[(int) (STRIPES * file.layout().stripeDataBytes())];
    new Random(seed).nextBytes(data);
    cluster
        .writer
        .write(file, 0, data, 0, data.length, false, SizeExtension.NONE)
        .get(30, TimeUnit.SECONDS);
    return data;
  }

  private byte[] read(FileTarget file, int len) throws Exception {
    byte[] out = new byte[len];
    cluster.io.read(file, 0, out, 0, len).get(30, TimeUnit.SECONDS);
    return out;
  }

  /** Per stripe, the units plain reads fetched, over every server. */
  private Map<Long, Set<Integer>> unitsRead() {
    return cluster.servers.values().stream()
        .flatMap(s -> s.requests(OpCase.READ).stream())
        .flatMap(r -> r.getRead().getRangesList().stream())
        .filter(r -> r.getLength() > 0)
        .collect(
            Collectors.groupingBy(
                ShardRangeProto::getStripe,
                Collectors.mapping(
                    ShardRangeProto::getUnit, Collectors.toCollection(TreeSet::new))));
  }

  @Test
  void aHealthyReadFetchesTheDataUnitsAndNoParity() throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(1, layout, List.of());
    byte[] data = writeStripes(file, 1);
    assertThat(read(file, data.length)).isEqualTo(data);
    Map<Long, Set<Integer>> read = unitsRead();
    assertThat(read).hasSize(STRIPES);
    read.values().forEach(units -> assertThat(units).containsExactly(0, 1, 2, 3));
  }

  @Test
  void aDegradedReadFetchesParityOnlyForTheStripesThatLostADataUnit() throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(2, layout, List.of());
    byte[] data = writeStripes(file, 2);
    cluster.server(0).stop();
    assertThat(read(file, data.length)).as("decoded around ds-0").isEqualTo(data);
    Map<Long, Set<Integer>> read = unitsRead();
    for (long s = 0; s < STRIPES; s++) {
      Set<Integer> units = read.get(s);
      int lost = unitOn(layout, s, "ds-0");
      assertThat(units)
          .as("stripe %d: units read (ds-0 held unit %d)", s, lost)
          .doesNotContain(lost);
      if (lost < layout.dataUnits()) {
        assertThat(units)
            .as("stripe %d lost data unit %d: k units, parity among them", s, lost)
            .hasSize(4)
            .containsAnyOf(4, 5);
      } else {
        assertThat(units)
            .as("stripe %d lost only parity: its data units", s)
            .containsExactly(0, 1, 2, 3);
      }
    }
  }

  private byte[] readKept(FileTarget file, long pos, int len) throws Exception {
    ByteBuf kept = cluster.io.readKept(file, pos, len).get(30, TimeUnit.SECONDS);
    try {
      return ByteBufUtil.getBytes(kept);
    } finally {
      kept.release();
    }
  }

  /** How often each (stripe, unit) was asked for, over every server. */
  private Map<String, Long> askedFor() {
    return cluster.servers.values().stream()
        .flatMap(s -> s.requests(OpCase.READ).stream())
        .flatMap(r -> r.getRead().getRangesList().stream())
        .collect(
            Collectors.groupingBy(r -> r.getStripe() + "/" + r.getUnit(), Collectors.counting()));
  }

  @Test
  void aStreamingReadAroundADownServerDecodesFromWhatItFetchedAndAsksForEachUnitOnce()
      throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(4, layout, List.of());
    byte[] data = writeStripes(file, 4);
    cluster.server(0).stop();
    cluster.data.health().markDown("ds-0", "stopped by the test");
    // not stripe-aligned: the first and last stripes lose only part of a unit
    int from = UNIT / 2 + 100;
    int len = data.length - UNIT - 300;
    assertThat(readKept(file, from, len))
        .as("decoded around ds-0")
        .isEqualTo(Arrays.copyOfRange(data, from, from + len));
    assertThat(cluster.server(0).requests(OpCase.READ)).as("ds-0 is not asked").isEmpty();
    assertThat(askedFor())
        .as("every unit of a whole stripe asked for once")
        .allSatisfy((u, n) -> assertThat(n).isEqualTo(partlyRead(u) ? n : 1L));
    long lostDataUnits =
        LongStream.range(0, STRIPES)
            .filter(s -> layout.dataUnits() > unitOn(layout, s, "ds-0"))
            .count();
    assertThat(cluster.counters.degradedStripeReads.get())
        .as("each stripe that lost a data unit decoded once")
        .isEqualTo(lostDataUnits);
  }

  @Test
  void aStreamingReadWhoseServerDiesMidReadIsReadAgainAroundIt() throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(5, layout, List.of());
    byte[] data = writeStripes(file, 5);
    cluster.server(1).stop();
    assertThat(readKept(file, 0, data.length)).as("decoded around ds-1").isEqualTo(data);
    assertThat(cluster.data.health().isDown("ds-1")).isTrue();
  }

  /** A 6+0 file with a server down said "file 212 has no parity": a user knows it by its path. */
  @Test
  void aFileWithoutParityThatLostAServerIsUnreadableByItsPath() throws Exception {
    cluster = new FakeCluster(3);
    StripeLayout layout = cluster.layout(3, 0, UNIT);
    MetaResponseProto opened =
        MetaResponseProto.newBuilder()
            .setInode(
                InodeProto.newBuilder()
                    .setId(212)
                    .setLayout(
                        LayoutProto.newBuilder()
                            .setStripeUnit(UNIT)
                            .setDataUnits(3)
                            .addAllServers(layout.servers())))
            .build();
    FileTarget file = FileTarget.of(opened, "/results/plain.dat", FileTarget.Renewer.NONE);
    byte[] data = new byte[STRIPES * 3 * UNIT];
    new Random(7).nextBytes(data);
    cluster
        .io
        .write(file, 0, data, 0, data.length, false, SizeExtension.NONE)
        .get(30, TimeUnit.SECONDS);
    cluster.server(1).stop();

    assertThatThrownBy(() -> read(file, data.length))
        .hasRootCauseInstanceOf(TesseraException.class)
        .rootCause()
        .hasMessageStartingWith("/results/plain.dat has no parity (layout striped 3+0")
        .hasMessageNotContaining("file 212");
  }

  /** A unit of the first or last stripe of the read: a decode may need more of it than asked. */
  private static boolean partlyRead(String stripeAndUnit) {
    return stripeAndUnit.startsWith("0/") || stripeAndUnit.startsWith((STRIPES - 1) + "/");
  }

  private static int unitOn(StripeLayout layout, long stripe, String server) {
    for (int u = 0; u < layout.width(); u++) {
      if (layout.serverOf(stripe, u).equals(server)) {
        return u;
      }
    }
    throw new AssertionError(server + " holds no unit of stripe " + stripe);
  }

  @Test
  void aShardFailingItsChecksumIsDecodedFromTheOtherUnitsAndNotReadAgain() throws Exception {
    cluster = new FakeCluster(6);
    StripeLayout layout = cluster.layout(4, 2, UNIT);
    FileTarget file = new FileTarget(3, layout, List.of());
    byte[] data = writeStripes(file, 3);
    String holder = layout.serverOf(2, 1);
    cluster.servers.get(holder).corrupt(3, 2, 1);
    assertThat(read(file, data.length)).as("stripe 2 decoded around its bad unit").isEqualTo(data);
    long readsOfBadUnit =
        cluster.servers.get(holder).requests(OpCase.READ).stream()
            .flatMap(r -> r.getRead().getRangesList().stream())
            .filter(r -> r.getStripe() == 2 && r.getUnit() == 1)
            .count();
    assertThat(readsOfBadUnit).as("the bad unit is asked for once").isEqualTo(1);
    assertThat(unitsRead().get(2L)).as("stripe 2: parity fetched to decode").containsAnyOf(4, 5);
  }

  @Test
  void aTruncateWithFewerThanKServersUpIsRefusedWithoutMarkingAnyStale() throws Exception {
    cluster = new FakeCluster(3);
    StripeLayout layout = cluster.layout(2, 1, UNIT);
    FileTarget file = new FileTarget(3, layout, List.of());
    writeStripes(file, 3);
    cluster.server(0).stop();
    cluster.server(1).stop();
    assertThatThrownBy(() -> cluster.io.truncate(file, UNIT).get(30, TimeUnit.SECONDS))
        .hasRootCauseInstanceOf(TesseraException.class)
        .hasMessageContaining("a truncate needs 2");
    // two of three stale would leave one current server: the file could never be rebuilt
    assertThat(cluster.metaRequests())
        .noneMatch(r -> r.hasSetAttr() && r.getSetAttr().getAddStaleServersCount() > 0);
    assertThat(file.isStale("ds-0") || file.isStale("ds-1")).isFalse();
  }
}
