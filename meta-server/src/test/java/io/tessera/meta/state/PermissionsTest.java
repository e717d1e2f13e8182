package io.tessera.meta.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.common.proto.QosAppProto;
import io.tessera.common.proto.QosSetRequestProto;
import io.tessera.common.proto.ReadDirRequestProto;
import io.tessera.common.proto.RemoveRequestProto;
import io.tessera.common.proto.RenameRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.AccessTokens;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The POSIX permission checks every replica applies to the actor the leader took from the caller's
 * certificate: users keep out of each other's files, a sticky directory protects its entries, only
 * owners change modes and only superusers give files away, and a refused change leaves everything
 * as it was.
 */
class PermissionsTest extends AppliedNamespaceTest {
  private static final ActorProto ADMIN =
      ActorProto.newBuilder().setName("admin").setUid(500).setGid(500).setAdmin(true).build();
  private static final ActorProto ALICE =
      ActorProto.newBuilder().setName("alice").setUid(1000).setGid(1000).addGroups(100).build();
  private static final ActorProto BOB =
      ActorProto.newBuilder().setName("bob").setUid(1001).setGid(1001).build();

  private MetaResponseProto as(ActorProto who, MetaRequestProto.Builder req) {
    MetaResponseProto[] out = new MetaResponseProto[1];
    entry(tx -> out[0] = NamespaceChanges.apply(tx, req.setActor(who).build(), 1000 + index));
    return out[0];
  }

  private StatusProto stat(ActorProto who, String path) {
    try {
      NamespaceQueries.getAttr(
          store, GetAttrRequestProto.newBuilder().setPath(path).build(), new Actor(who));
      return StatusProto.OK;
    } catch (NamespaceException e) {
      return e.status();
    }
  }

  private StatusProto list(ActorProto who, String path) {
    try {
      NamespaceQueries.readDir(
          store, ReadDirRequestProto.newBuilder().setPath(path).build(), new Actor(who));
      return StatusProto.OK;
    } catch (NamespaceException e) {
      return e.status();
    }
  }

  private static MetaRequestProto.Builder mkdir(String path, int mode) {
    return MetaRequestProto.newBuilder()
        .setMkdir(MkdirRequestProto.newBuilder().setPath(path).setMode(mode));
  }

  private static MetaRequestProto.Builder create(String path) {
    return MetaRequestProto.newBuilder()
        .setCreate(
            CreateRequestProto.newBuilder()
                .setPath(path)
                .setLayout(LayoutPolicyProto.newBuilder().setStripeUnit(4096).setDataUnits(1))
                .setHasLayout(true)
                .addPlacement("ds-1"));
  }

  private static MetaRequestProto.Builder chown(String path, Integer uid, Integer gid) {
    SetAttrRequestProto.Builder a = SetAttrRequestProto.newBuilder().setPath(path);
    if (uid != null) {
      a.setUid(uid);
    }
    if (gid != null) {
      a.setGid(gid);
    }
    return MetaRequestProto.newBuilder().setSetAttr(a);
  }

  private static MetaRequestProto.Builder chmod(String path, int mode) {
    return MetaRequestProto.newBuilder()
        .setSetAttr(SetAttrRequestProto.newBuilder().setPath(path).setSetMode(true).setMode(mode));
  }

  private static MetaRequestProto.Builder rm(String path, boolean recursive) {
    return MetaRequestProto.newBuilder()
        .setRemove(RemoveRequestProto.newBuilder().setPath(path).setRecursive(recursive));
  }

  /** /home/alice (alice's, 0700) and /tmp (sticky, 1777), as an admin sets them up. */
  @BeforeEach
  void homes() {
    as(ADMIN, mkdir("/home", 0755));
    as(ADMIN, mkdir("/home/alice", 0700));
    as(ADMIN, chown("/home/alice", 1000, 1000));
    as(ADMIN, mkdir("/tmp", 01777));
  }

  @Test
  void aUserCannotLookIntoAnotherUsersPrivateDirectory() {
    assertThat(as(ALICE, create("/home/alice/secret")).getStatus()).isEqualTo(StatusProto.OK);

    assertThat(stat(BOB, "/home/alice/secret")).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(list(BOB, "/home/alice")).isEqualTo(StatusProto.PERMISSION_DENIED);
    MetaResponseProto bobCreates = as(BOB, create("/home/alice/planted"));
    assertThat(bobCreates.getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(bobCreates.getMessage()).contains("bob", "/home/alice", "0700");
    assertThat(stat(ALICE, "/home/alice/planted")).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(stat(ALICE, "/home/alice/secret")).isEqualTo(StatusProto.OK);
    assertThat(stat(ADMIN, "/home/alice/secret"))
        .as("admins are superusers")
        .isEqualTo(StatusProto.OK);
  }

  @Test
  void aStickyDirectoryKeepsOthersFromRemovingOrReplacingYourFiles() {
    as(ALICE, create("/tmp/alices"));
    as(BOB, create("/tmp/bobs"));

    assertThat(as(BOB, rm("/tmp/alices", false)).getStatus())
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    MetaResponseProto replace =
        as(
            BOB,
            MetaRequestProto.newBuilder()
                .setRename(
                    RenameRequestProto.newBuilder()
                        .setSource("/tmp/bobs")
                        .setTarget("/tmp/alices")));
    assertThat(replace.getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(stat(ALICE, "/tmp/alices")).isEqualTo(StatusProto.OK);
    assertThat(as(ALICE, rm("/tmp/alices", false)).getStatus()).isEqualTo(StatusProto.OK);
  }

  @Test
  void onlyTheOwnerChangesTheModeAndOnlySuperusersGiveFilesAway() {
    as(ALICE, create("/tmp/f"));

    assertThat(as(BOB, chmod("/tmp/f", 0666)).getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(as(ALICE, chown("/tmp/f", 1001, null)).getStatus())
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(as(ALICE, chown("/tmp/f", null, 4242)).getStatus())
        .as("a group alice is not in")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    InodeProto regrouped = as(ALICE, chown("/tmp/f", null, 100)).getInode();
    assertThat(regrouped.getGid()).as("a group alice is in").isEqualTo(100);
    assertThat(as(ALICE, chmod("/tmp/f", 0600)).getInode().getMode()).isEqualTo(0600);
    assertThat(as(ADMIN, chown("/tmp/f", 1001, 1001)).getInode().getUid()).isEqualTo(1001);
  }

  @Test
  void aRecursiveRemoveRefusedDeepDownRemovesNothing() {
    as(ADMIN, mkdir("/shared", 0777));
    as(ALICE, mkdir("/shared/work", 0777));
    assertThat(as(BOB, mkdir("/shared/work/bobs", 0755)).getStatus()).isEqualTo(StatusProto.OK);
    as(BOB, create("/shared/work/bobs/result"));
    as(ALICE, create("/shared/work/notes"));

    MetaResponseProto rmrf = as(ALICE, rm("/shared/work", true));

    assertThat(rmrf.getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(rmrf.getMessage()).contains("alice", "bobs");
    assertThat(stat(ALICE, "/shared/work/notes")).isEqualTo(StatusProto.OK);
    assertThat(stat(BOB, "/shared/work/bobs/result")).isEqualTo(StatusProto.OK);
  }

  @Test
  void newFilesBelongToTheirCreatorAndTakeASetGidDirectorysGroup() {
    as(ADMIN, mkdir("/projects", 02777));
    as(ADMIN, chown("/projects", 0, 100));

    InodeProto f = as(BOB, create("/projects/plan")).getInode();
    InodeProto d = as(BOB, mkdir("/projects/drafts", 0755)).getInode();
    InodeProto t = as(BOB, create("/tmp/plain")).getInode();
    MetaRequestProto.Builder asRoot = create("/tmp/claimed");
    asRoot.getCreateBuilder().setUid(0).setGid(0);
    InodeProto claimed = as(BOB, asRoot).getInode();

    assertThat(f.getUid()).isEqualTo(1001);
    assertThat(f.getGid()).isEqualTo(100);
    assertThat(d.getGid()).isEqualTo(100);
    assertThat(d.getMode() & 02000).as("set-group-id passes down to subdirectories").isNotZero();
    assertThat(t.getGid()).as("an ordinary directory: the creator's group").isEqualTo(1001);
    assertThat(claimed.getUid()).as("the owner a user asks for is not given").isEqualTo(1001);
  }

  @Test
  void anAdminCreatesFilesForTheOwnerItNames() {
    MetaRequestProto.Builder forAlice = create("/tmp/restored");
    forAlice.getCreateBuilder().setUid(1000).setGid(100);

    InodeProto f = as(ADMIN, forAlice).getInode();

    assertThat(f.getUid()).isEqualTo(1000);
    assertThat(f.getGid()).isEqualTo(100);
  }

  @Test
  void tokensGrantWhatTheModeGrantsAndAReadOnlyActorNeverWrites() {
    as(ALICE, create("/tmp/shared"));
    as(ALICE, chmod("/tmp/shared", 0644));
    InodeProto in = as(ADMIN, chown("/tmp/shared", null, null)).getInode();
    ActorProto looker = ActorProto.newBuilder().setName("console:ro").setReadOnly(true).build();

    assertThat(Permissions.tokenRights(new Actor(ALICE), in))
        .isEqualTo(AccessTokens.READ | AccessTokens.WRITE);
    assertThat(Permissions.tokenRights(new Actor(BOB), in)).isEqualTo(AccessTokens.READ);
    assertThat(Permissions.tokenRights(new Actor(looker), in)).isEqualTo(AccessTokens.READ);
    assertThat(as(looker, rm("/tmp/shared", false)).getStatus())
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(list(looker, "/home/alice")).as("it sees everything").isEqualTo(StatusProto.OK);
  }

  @Test
  void adminOnlyChangesAreRefusedToUsersWhateverTheyClaim() {
    MetaRequestProto.Builder qos =
        MetaRequestProto.newBuilder()
            .setQosSet(
                QosSetRequestProto.newBuilder()
                    .setApp(QosAppProto.newBuilder().setApp("bob-first").setWeight(100)));

    assertThat(as(BOB, qos).getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(store.qosSettings()).isEmpty();
    assertThat(as(ADMIN, qos).getStatus()).isEqualTo(StatusProto.OK);
  }
}
