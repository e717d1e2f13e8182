package io.tessera.meta.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.common.proto.RenameRequestProto;
import io.tessera.common.proto.StatusProto;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the leader does to a change before it is logged: refusals inside snapshots, placement. */
class NamespaceChangesTest {
  /** A leader that places every file on ds-0..ds-2 and refuses layouts wider than 3. */
  private final List<String> asked = new ArrayList<>();

  private final NamespaceOp.Leader leader =
      new NamespaceOp.Leader() {
        @Override
        public CreateRequestProto placed(CreateRequestProto create) {
          asked.add("placed " + create.getPath());
          return create.toBuilder().addAllPlacement(List.of("ds-0", "ds-1", "ds-2")).build();
        }

        @Override
        public LayoutPolicyProto inheritedAt(String path) {
          return LayoutPolicyProto.newBuilder()
              .setDataUnits(2)
              .setParityUnits(1)
              .setStripeUnit(1 << 20)
              .build();
        }

        @Override
        public void checkFits(LayoutPolicyProto layout) {
          asked.add("fits " + (layout.getDataUnits() + layout.getParityUnits()));
          if (layout.getDataUnits() + layout.getParityUnits() > 3) {
            throw new NamespaceException(StatusProto.INVALID_ARGUMENT, "too wide");
          }
        }
      };

  @Test
  void aRenameIntoASnapshotIsRefusedReadOnlyBeforeItIsLogged() {
    MetaRequestProto rename =
        MetaRequestProto.newBuilder()
            .setRename(
                RenameRequestProto.newBuilder().setSource("/a").setTarget("/.snapshots/nightly/a"))
            .build();
    assertThatThrownBy(() -> NamespaceChanges.prepare(rename, leader))
        .isInstanceOfSatisfying(
            NamespaceException.class, e -> assertThat(e.status()).isEqualTo(StatusProto.READ_ONLY));
    assertThat(asked).isEmpty();
  }

  @Test
  void aCreateIsLoggedWithTheServersTheLeaderChose() {
    MetaRequestProto create =
        MetaRequestProto.newBuilder()
            .setCreate(CreateRequestProto.newBuilder().setPath("/f"))
            .build();
    MetaRequestProto logged = NamespaceChanges.prepare(create, leader);
    assertThat(logged.getCreate().getPlacementList()).containsExactly("ds-0", "ds-1", "ds-2");
    assertThat(asked).containsExactly("placed /f");
  }

  @Test
  void aDirectoryDefaultWiderThanTheClusterIsRefusedUnlessForced() {
    LayoutPolicyProto wide =
        LayoutPolicyProto.newBuilder()
            .setDataUnits(4)
            .setParityUnits(2)
            .setStripeUnit(65536)
            .build();
    MkdirRequestProto.Builder mkdir =
        MkdirRequestProto.newBuilder()
            .setPath("/d")
            .setHasDefaultLayout(true)
            .setDefaultLayout(wide);
    assertThatThrownBy(
            () ->
                NamespaceChanges.prepare(
                    MetaRequestProto.newBuilder().setMkdir(mkdir).build(), leader))
        .hasMessage("too wide");
    MetaRequestProto forced = MetaRequestProto.newBuilder().setMkdir(mkdir.setForce(true)).build();
    assertThat(NamespaceChanges.prepare(forced, leader)).isEqualTo(forced);
    assertThat(asked).containsExactly("fits 6");
  }

  @Test
  void readsAreNotChangesAndPassUnprepared() {
    MetaRequestProto stat =
        MetaRequestProto.newBuilder()
            .setGetAttr(GetAttrRequestProto.newBuilder().setPath("/.snapshots/nightly/a"))
            .build();
    assertThat(NamespaceChanges.isChange(stat)).isFalse();
    assertThat(NamespaceChanges.prepare(stat, leader)).isSameAs(stat);
  }
}
