package io.tessera.meta.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.state.NamespaceException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementPolicyTest {
  private static final long GIB = 1L << 30;

  private static List<HeartbeatRequestProto> live(int n) {
    List<HeartbeatRequestProto> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(
          HeartbeatRequestProto.newBuilder()
              .setServerId("ds-" + i)
              .setFreeBytes(100 * GIB)
              .build());
    }
    return out;
  }

  private static LayoutPolicyProto layout(int k, int m) {
    return LayoutPolicyProto.newBuilder()
        .setDataUnits(k)
        .setParityUnits(m)
        .setStripeUnit(1 << 20)
        .build();
  }

  /**
   * On the default six servers with a 4+2 default, one dead server stopped every new file: a file
   * is now created while k+1 of its servers are live, its other units stale on the dead one.
   */
  @Test
  void aFileIsCreatedWithAServerDownItsUnitThereStaleFromTheStart() {
    PlacementPolicy p = new PlacementPolicy(GIB, 1);
    PlacementPolicy.Placement placed = p.choose(live(5), List.of("ds-6"), layout(4, 2), false);
    assertThat(placed.servers()).hasSize(6).doesNotHaveDuplicates().contains("ds-6");
    assertThat(placed.staleFromStart()).containsExactly("ds-6");

    PlacementPolicy.Placement whole = p.choose(live(6), List.of(), layout(4, 2), false);
    assertThat(whole.staleFromStart()).as("every server live: none stale").isEmpty();
  }

  @Test
  void belowKPlusOneLiveOrWithoutParityAFileWaitsForItsServers() {
    PlacementPolicy p = new PlacementPolicy(GIB, 1);
    assertThatThrownBy(() -> p.choose(live(4), List.of("ds-5", "ds-6"), layout(4, 2), false))
        .isInstanceOf(NamespaceException.class)
        .hasMessageContaining("at least 5 of its 6 data servers live")
        .satisfies(
            e -> assertThat(((NamespaceException) e).status()).isEqualTo(StatusProto.NO_SPACE));
    assertThatThrownBy(() -> p.choose(live(5), List.of("ds-6"), layout(6, 0), false))
        .as("no parity: no unit may start stale")
        .hasMessageContaining("all 6 data servers live");
    assertThatThrownBy(() -> p.choose(live(5), List.of(), layout(4, 2), false))
        .hasMessageContaining("needs 6 data servers; the cluster has 5");
  }

  /** A put issued as soon as the cluster answered failed: "0 are available". */
  @Test
  void tooFewServersRightAfterALeaderTookOverIsRetriedNotRefused() {
    PlacementPolicy p = new PlacementPolicy(GIB, 1);
    assertThatThrownBy(() -> p.choose(live(0), List.of(), layout(1, 0), true))
        .satisfies(
            e -> assertThat(((NamespaceException) e).status()).isEqualTo(StatusProto.UNAVAILABLE))
        .hasMessageContaining("retry shortly");
  }

  @Test
  void theAutomaticDefaultIsTheWidestSafeLayoutTheServersHold() {
    assertThat(DefaultLayout.widestSafe(12, 1 << 20)).isEqualTo(layout(6, 3));
    assertThat(DefaultLayout.widestSafe(9, 1 << 20)).isEqualTo(layout(6, 3));
    assertThat(DefaultLayout.widestSafe(8, 1 << 20)).isEqualTo(layout(4, 2));
    assertThat(DefaultLayout.widestSafe(6, 1 << 20)).isEqualTo(layout(4, 2));
    assertThat(DefaultLayout.widestSafe(3, 1 << 20)).isEqualTo(layout(2, 1));
    assertThat(DefaultLayout.widestSafe(2, 1 << 20)).isEqualTo(layout(1, 1));
    assertThat(DefaultLayout.widestSafe(1, 1 << 20)).isEqualTo(layout(1, 0));
    assertThat(DefaultLayout.parse("6+0").policyFor(9, 1 << 20))
        .as("striping only when asked")
        .isEqualTo(layout(6, 0));
    assertThatThrownBy(() -> DefaultLayout.parse("6-3")).hasMessageContaining("is not auto or K+M");
  }
}
