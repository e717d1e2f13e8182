package io.tessera.meta.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.common.proto.ReadDirRequestProto;
import io.tessera.common.proto.RemoveRequestProto;
import io.tessera.common.proto.RenameRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.ServerStateChangeProto;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The namespace rules a user relies on, applied as the state machine applies them. */
class NamespaceOperationsTest extends AppliedNamespaceTest {
  /** Applies changes as one log entry, like a group-committed batch. */
  private List<MetaResponseProto> entry(MetaRequestProto... reqs) {
    List<MetaResponseProto> out = new ArrayList<>();
    long at = index + 1;
    try (NamespaceTxn tx = store.begin(at)) {
      for (MetaRequestProto r : reqs) {
        out.add(NamespaceChanges.apply(tx, r, 1000 + index));
      }
      tx.commit(1, at);
    }
    index = at;
    return out;
  }

  private MetaResponseProto one(MetaRequestProto r) {
    return entry(r).get(0);
  }

  private static MetaRequestProto mkdir(String p, boolean parents) {
    return MetaRequestProto.newBuilder()
        .setMkdir(MkdirRequestProto.newBuilder().setPath(p).setParents(parents))
        .build();
  }

  private static MetaRequestProto create(String p) {
    return MetaRequestProto.newBuilder()
        .setCreate(
            CreateRequestProto.newBuilder()
                .setPath(p)
                .setLayout(LayoutPolicyProto.newBuilder().setStripeUnit(4096).setDataUnits(2))
                .setHasLayout(true)
                .addPlacement("ds-1")
                .addPlacement("ds-2"))
        .build();
  }

  private static MetaRequestProto mv(String a, String b) {
    return MetaRequestProto.newBuilder()
        .setRename(RenameRequestProto.newBuilder().setSource(a).setTarget(b))
        .build();
  }

  private static MetaRequestProto rm(String p, boolean recursive) {
    return MetaRequestProto.newBuilder()
        .setRemove(RemoveRequestProto.newBuilder().setPath(p).setRecursive(recursive))
        .build();
  }

  private StatusProto stat(String p) {
    try {
      NamespaceQueries.getAttr(
          store, GetAttrRequestProto.newBuilder().setPath(p).build(), Actor.CLUSTER);
      return StatusProto.OK;
    } catch (NamespaceException e) {
      return e.status();
    }
  }

  /**
   * While the meta leader is being replaced, another replica answers a client's lookups once it has
   * applied what the client has seen. A lookup tells the client how new its answer is: the newest
   * change to the inodes it read, not the newest entry in the log, or every client that read a busy
   * namespace in the leader's last milliseconds would wait out the election for changes (other
   * files', recovery's) it never saw.
   */
  @Test
  void aLookupIsAsNewAsTheLastChangeToWhatItReadNotAsTheLog() {
    one(mkdir("/a", false));
    one(create("/a/f"));
    long fileCreated = index;
    one(mkdir("/busy", false));
    long rootChanged = index;
    for (int i = 0; i < 50; i++) {
      one(create("/busy/x" + i));
    }
    assertThat(lookupIndex("/a/f"))
        .as("a lookup through / and /a to f")
        .isEqualTo(rootChanged)
        .isGreaterThan(fileCreated)
        .isLessThan(index);
    assertThat(
            NamespaceQueries.readDir(
                    store, ReadDirRequestProto.newBuilder().setPath("/a").build(), Actor.CLUSTER)
                .getIndex())
        .as("a listing of /a")
        .isEqualTo(rootChanged);
    assertThat(lookupIndex("/busy/x7")).as("a lookup in the busy directory").isEqualTo(index);

    long id = one(create("/a/g")).getInode().getId();
    one(
        MetaRequestProto.newBuilder()
            .setSetAttr(
                SetAttrRequestProto.newBuilder()
                    .setFileId(id)
                    .setSetSize(true)
                    .setSize(5000)
                    .setExtendOnly(true))
            .build());
    assertThat(lookupIndex("/a/g")).as("a lookup of a file just grown").isEqualTo(index);
    assertThat(
            NamespaceQueries.getAttr(
                    store, GetAttrRequestProto.newBuilder().setFileId(id).build(), Actor.CLUSTER)
                .getIndex())
        .as("a lookup of it by id")
        .isEqualTo(index);

    try (NamespaceTxn tx = store.begin()) {
      tx.putInode(tx.inode(id).toBuilder().setMode(0600).build());
      tx.commit(1, ++index);
    }
    assertThat(lookupIndex("/a/g"))
        .as(
            "an inode written with no log position: the replica's applied index "
                + "answers for it")
        .isZero();
  }

  private long lookupIndex(String path) {
    return NamespaceQueries.getAttr(
            store, GetAttrRequestProto.newBuilder().setPath(path).build(), Actor.CLUSTER)
        .getIndex();
  }

  @Test
  void mkdirParentsCreatesTheChainAndPlainMkdirNeedsItsParent() {
    assertThat(one(mkdir("/a/b", false)).getStatus()).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(one(mkdir("/a/b/c", true)).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(stat("/a/b/c")).isEqualTo(StatusProto.OK);
    assertThat(one(mkdir("/a/b", true)).getStatus())
        .as("-p accepts an existing directory")
        .isEqualTo(StatusProto.OK);
    assertThat(one(mkdir("/a/b", false)).getStatus()).isEqualTo(StatusProto.EXISTS);
    one(create("/a/f"));
    assertThat(one(mkdir("/a/f/g", true)).getStatus()).isEqualTo(StatusProto.NOT_DIRECTORY);
  }

  @Test
  void aRefusedChangeLeavesNothingBehindEvenInsideABatch() {
    one(create("/file"));
    // mkdir -p creates /x, then fails at /x/file/... no: it fails at /file/y before creating
    // anything
    List<MetaResponseProto> r =
        entry(mkdir("/new", false), mkdir("/file/y/z", true), create("/new/f"));
    assertThat(r)
        .extracting(MetaResponseProto::getStatus)
        .containsExactly(StatusProto.OK, StatusProto.NOT_DIRECTORY, StatusProto.OK);
    assertThat(stat("/new/f"))
        .as("a later change in the same entry sees the earlier one")
        .isEqualTo(StatusProto.OK);
    assertThat(stat("/file/y")).isEqualTo(StatusProto.NOT_DIRECTORY);
  }

  @Test
  void renameFollowsPosixRules() {
    entry(
        mkdir("/d1/sub", true),
        mkdir("/d2", true),
        mkdir("/full/x", true),
        create("/f1"),
        create("/f2"));
    assertThat(one(mv("/f1", "/f2")).getStatus())
        .as("a file replaces a file")
        .isEqualTo(StatusProto.OK);
    assertThat(stat("/f1")).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(store.pendingReclaims(10)).as("the replaced file's shards are reclaimed").hasSize(1);
    assertThat(one(mv("/d1", "/d2")).getStatus())
        .as("a directory replaces an empty one")
        .isEqualTo(StatusProto.OK);
    assertThat(stat("/d2/sub")).isEqualTo(StatusProto.OK);
    assertThat(one(mv("/d2", "/full")).getStatus()).isEqualTo(StatusProto.NOT_EMPTY);
    assertThat(one(mv("/d2", "/d2/sub/inside")).getStatus())
        .isEqualTo(StatusProto.INVALID_ARGUMENT);
    assertThat(one(mv("/f2", "/d2")).getStatus()).isEqualTo(StatusProto.IS_DIRECTORY);
    assertThat(one(mv("/d2", "/f2")).getStatus()).isEqualTo(StatusProto.NOT_DIRECTORY);
    assertThat(one(mv("/f2", "/f2")).getStatus()).as("onto itself").isEqualTo(StatusProto.OK);
    assertThat(one(mv("/missing", "/x")).getStatus()).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(one(mv("/f2", "/nodir/f")).getStatus()).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(stat("/f2")).as("failed renames change nothing").isEqualTo(StatusProto.OK);
  }

  @Test
  void aNoReplaceRenameLeavesAnExistingTargetAloneAndMovesOntoAFreeName() {
    entry(mkdir("/d", true), create("/d/new"), create("/d/old"));
    MetaRequestProto.Builder clobber = mv("/d/new", "/d/old").toBuilder();
    clobber.getRenameBuilder().setNoReplace(true);
    MetaResponseProto refused = one(clobber.build());
    assertThat(refused.getStatus()).isEqualTo(StatusProto.EXISTS);
    assertThat(refused.getMessage()).isEqualTo("/d/old already exists");
    assertThat(stat("/d/new")).isEqualTo(StatusProto.OK);
    assertThat(store.pendingReclaims(10)).as("the target's shards are not reclaimed").isEmpty();
    clobber.getRenameBuilder().setTarget("/d/free");
    assertThat(one(clobber.build()).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(stat("/d/new")).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(stat("/d/free")).isEqualTo(StatusProto.OK);
  }

  @Test
  void removeNeedsRecursiveForNonEmptyDirectoriesAndReclaimsEveryFile() {
    entry(mkdir("/t/a/b", true), create("/t/a/b/f1"), create("/t/a/f2"), create("/t/f3"));
    assertThat(one(rm("/t", false)).getStatus()).isEqualTo(StatusProto.NOT_EMPTY);
    assertThat(one(rm("/t", true)).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(stat("/t")).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(store.pendingReclaims(10)).hasSize(3);
    assertThat(one(rm("/", true)).getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
    entry(mkdir("/empty", false), create("/plain"));
    assertThat(one(rm("/empty", false)).getStatus())
        .as("an empty directory needs no -r")
        .isEqualTo(StatusProto.OK);
    MetaRequestProto rmdir =
        MetaRequestProto.newBuilder()
            .setRemove(RemoveRequestProto.newBuilder().setPath("/plain").setDirectory(true))
            .build();
    assertThat(one(rmdir).getStatus()).isEqualTo(StatusProto.NOT_DIRECTORY);
  }

  /**
   * A metadata benchmark removes tens of thousands of empty files; large files removed after them
   * must not wait behind them for their space (their shards fill the data servers' caches).
   */
  @Test
  void removedFilesThatHeldBytesAreReclaimedBeforeEmptyOnesAndBothAreForgottenOnceDone() {
    entry(mkdir("/r", false));
    long empty = one(create("/r/empty")).getInode().getId();
    long big = one(create("/r/big")).getInode().getId();
    one(
        MetaRequestProto.newBuilder()
            .setSetAttr(
                SetAttrRequestProto.newBuilder()
                    .setFileId(big)
                    .setSetSize(true)
                    .setSize(5000)
                    .setExtendOnly(true))
            .build());
    long laterEmpty = one(create("/r/later")).getInode().getId();
    assertThat(one(rm("/r", true)).getStatus()).isEqualTo(StatusProto.OK);

    assertThat(store.pendingReclaims(10).keySet()).containsExactly(big, empty, laterEmpty);
    assertThat(store.pendingReclaims(1).keySet()).containsExactly(big);

    long at = index + 1;
    try (NamespaceTxn tx = store.begin(at)) {
      tx.reclaimDone(big);
      tx.reclaimDone(empty);
      tx.commit(1, at);
    }
    index = at;
    assertThat(store.pendingReclaims(10).keySet()).containsExactly(laterEmpty);
    assertThat(store.pendingReclaimCount(10)).isOne();
  }

  @Test
  void readDirPagesThroughLargeDirectoriesInNameOrder() {
    List<MetaRequestProto> creates = new ArrayList<>();
    creates.add(mkdir("/big", false));
    for (int i = 0; i < 2500; i++) {
      creates.add(create(String.format("/big/f%05d", i)));
    }
    entry(creates.toArray(MetaRequestProto[]::new));
    List<String> names = new ArrayList<>();
    String after = "";
    boolean more;
    int pages = 0;
    do {
      var r =
          NamespaceQueries.readDir(
                  store,
                  ReadDirRequestProto.newBuilder()
                      .setPath("/big")
                      .setStartAfter(after)
                      .setLimit(1000)
                      .build(),
                  Actor.CLUSTER)
              .getEntries();
      r.getEntriesList().forEach(e -> names.add(e.getName()));
      after = names.get(names.size() - 1);
      more = r.getMore();
      pages++;
    } while (more);
    assertThat(pages).isEqualTo(3);
    assertThat(names).hasSize(2500).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void writersExtendTheSizeByFileIdEvenAfterARename() {
    long id = one(create("/w")).getInode().getId();
    one(mv("/w", "/w2"));
    MetaRequestProto grow =
        MetaRequestProto.newBuilder()
            .setSetAttr(
                SetAttrRequestProto.newBuilder()
                    .setFileId(id)
                    .setSetSize(true)
                    .setSize(5000)
                    .setExtendOnly(true))
            .build();
    MetaRequestProto shrinkAttempt =
        MetaRequestProto.newBuilder()
            .setSetAttr(
                SetAttrRequestProto.newBuilder()
                    .setFileId(id)
                    .setSetSize(true)
                    .setSize(10)
                    .setExtendOnly(true))
            .build();
    assertThat(entry(grow, shrinkAttempt).get(1).getInode().getSize()).isEqualTo(5000);
    one(rm("/w2", false));
    assertThat(one(grow).getStatus())
        .as("the open file was removed")
        .isEqualTo(StatusProto.NOT_FOUND);
  }

  /**
   * An NFS file handle names an inode by id alone; a gateway that restarted, or another gateway,
   * must find the file where it is now, after renames of it and of its directories, and never
   * another file once it is gone.
   */
  @Test
  void aFileIdLeadsToTheFilesPathAfterRenamesAndToNothingOnceRemoved() {
    one(mkdir("/a/b", true));
    long id = one(create("/a/b/f")).getInode().getId();
    one(mv("/a/b", "/a/c"));
    one(mv("/a", "/z"));
    assertThat(pathOf(id)).isEqualTo("/z/c/f");
    one(mv("/z/c/f", "/top"));
    assertThat(pathOf(id)).isEqualTo("/top");
    assertThat(pathOf(NamespaceView.ROOT_ID)).isEqualTo("/");
    one(rm("/top", false));
    one(create("/top"));
    try {
      pathOf(id);
      throw new AssertionError("a removed file's id still answered");
    } catch (NamespaceException e) {
      assertThat(e.status()).isEqualTo(StatusProto.NOT_FOUND);
    }
  }

  private String pathOf(long id) {
    return NamespaceQueries.getAttr(
            store, GetAttrRequestProto.newBuilder().setFileId(id).build(), Actor.CLUSTER)
        .getPath();
  }

  @Test
  void ownersComeFromTheCreatorAndChangeOnlyWhenAsked() {
    // the actor the leader took from the caller's certificate, not the ids a request claims
    ActorProto alice = ActorProto.newBuilder().setName("alice").setUid(1000).setGid(100).build();
    one(
        MetaRequestProto.newBuilder()
            .setMkdir(MkdirRequestProto.newBuilder().setPath("/shared").setMode(0777))
            .build());
    MetaRequestProto mkdirAs =
        MetaRequestProto.newBuilder()
            .setActor(alice)
            .setMkdir(MkdirRequestProto.newBuilder().setPath("/shared/home").setUid(7).setGid(7))
            .build();
    MetaRequestProto createAs =
        create("/shared/home/f").toBuilder()
            .setActor(alice)
            .setCreate(create("/shared/home/f").getCreate().toBuilder().setUid(7).setGid(7))
            .build();
    InodeProto dir = one(mkdirAs).getInode();
    InodeProto file = one(createAs).getInode();
    assertThat(List.of(dir.getUid(), dir.getGid(), file.getUid(), file.getGid()))
        .containsExactly(1000, 100, 1000, 100);
    MetaRequestProto chgrp =
        MetaRequestProto.newBuilder()
            .setSetAttr(SetAttrRequestProto.newBuilder().setPath("/shared/home/f").setGid(50))
            .build();
    InodeProto changed = one(chgrp).getInode();
    assertThat(changed.getUid()).as("chgrp keeps the owner").isEqualTo(1000);
    assertThat(changed.getGid()).isEqualTo(50);
    assertThat(changed.getBornMs()).as("creation time stays").isEqualTo(file.getBornMs());
  }

  @Test
  void badPathsAndReservedNamesAreRefused() {
    assertThat(one(mkdir("relative", false)).getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
    assertThat(one(mkdir("/a/../b", true)).getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
    assertThat(one(mkdir("/" + "x".repeat(300), false)).getStatus())
        .isEqualTo(StatusProto.INVALID_ARGUMENT);
    assertThat(one(mkdir("/.snapshots", false)).getMessage()).contains("reserved");
    assertThat(one(create("/")).getStatus()).isEqualTo(StatusProto.EXISTS);
  }

  @Test
  void theStoreRemembersItsLogPositionAcrossReopen() throws Exception {
    one(mkdir("/persist", false));
    long applied = store.appliedIndex();
    store.close();
    store = new NamespaceStore(dir);
    assertThat(store.appliedIndex()).isEqualTo(applied);
    assertThat(stat("/persist")).isEqualTo(StatusProto.OK);
  }

  @Test
  void movingAFilesUnitsRenamesTheServerInItsLayoutOnceAndKeepsTheIndexesExact() throws Exception {
    long id = one(create("/moved")).getInode().getId();
    assertThat(store.placedFiles("ds-1", 10)).containsExactly(id);
    try (NamespaceTxn tx = store.begin()) {
      tx.putInode(tx.inode(id).toBuilder().addStaleServers("ds-1").build());
      tx.commit(1, ++index);
    }

    boolean moved;
    boolean again;
    try (NamespaceTxn tx = store.begin()) {
      moved = tx.moveUnits(id, "ds-1", "ds-9", 1);
      again = tx.moveUnits(id, "ds-1", "ds-8", 1); // a second move of the same generation: refused
      tx.commit(1, ++index);
    }
    assertThat(moved).isTrue();
    assertThat(again).isFalse();
    InodeProto in = store.inode(id);
    assertThat(in.getLayout().getServersList()).containsExactly("ds-9", "ds-2");
    assertThat(in.getLayout().getGeneration()).isEqualTo(1);
    assertThat(in.getStaleServersList()).as("the stale copy left with its server").isEmpty();
    assertThat(store.placedFiles("ds-1", 10)).isEmpty();
    assertThat(store.placedFiles("ds-9", 10)).containsExactly(id);
    assertThat(store.staleFiles("ds-1", 10)).isEmpty();
    assertThat(store.leftoverFiles("ds-1", 10))
        .as("its old shards are still to delete")
        .containsExactly(id);

    try (NamespaceTxn tx = store.begin()) {
      tx.leftoverDropped(id, "ds-1");
      tx.commit(1, ++index);
    }
    assertThat(store.leftoverFiles("ds-1", 10)).isEmpty();
    one(rm("/moved", false));
    assertThat(store.placedFiles("ds-9", 10)).as("a removed file is placed nowhere").isEmpty();
  }

  @Test
  void aServerIsRemovedOnlyOnceRetiredAndThenNothingOfItRemains() throws Exception {
    long id = one(create("/on-ds-1")).getInode().getId();
    for (String ds : List.of("ds-1", "ds-2")) {
      try (NamespaceTxn tx = store.begin()) {
        tx.registerServer(
            HeartbeatRequestProto.newBuilder().setServerId(ds).setAddress("127.0.0.1:1").build());
        tx.commit(1, ++index);
      }
    }
    assertThat(change("ds-1", b -> b.setRemoved(true))).as("an up server is not removed").isFalse();
    assertThat(
            change("ds-1", b -> b.setState(DataServerStateProto.DRAINING).setDecommissioned(true)))
        .isTrue();
    assertThat(change("ds-1", b -> b.setRemoved(true))).as("a draining one neither").isFalse();
    try (NamespaceTxn tx = store.begin()) {
      tx.moveUnits(id, "ds-1", "ds-9", 1);
      tx.commit(1, ++index);
    }
    assertThat(change("ds-1", b -> b.setState(DataServerStateProto.RETIRED))).isTrue();
    assertThat(store.leftoverFiles("ds-1", 10)).containsExactly(id);

    assertThat(change("ds-1", b -> b.setRemoved(true))).isTrue();
    assertThat(store.registeredServers()).containsOnlyKeys("ds-2");
    assertThat(store.serverStates()).doesNotContainKey("ds-1");
    assertThat(store.leftoverFiles("ds-1", 10)).as("its disk is no longer tracked").isEmpty();
    assertThat(store.inode(id).getLayout().getServersList()).containsExactly("ds-9", "ds-2");
  }

  private boolean change(String server, UnaryOperator<ServerStateChangeProto.Builder> how) {
    try (NamespaceTxn tx = store.begin()) {
      boolean changed =
          ServerStates.change(
              tx, how.apply(ServerStateChangeProto.newBuilder().setServer(server)).build(), 1000);
      tx.commit(1, ++index);
      return changed;
    }
  }

  @Test
  void aNamespaceWrittenBeforeThePlacementIndexGetsItOnOpen() throws Exception {
    long id = one(create("/old")).getInode().getId();
    store.close();
    try (org.rocksdb.Options o = new org.rocksdb.Options()) {
      // drop the family, as a namespace from before the index looks
      List<org.rocksdb.ColumnFamilyDescriptor> all = new ArrayList<>();
      for (byte[] name : org.rocksdb.RocksDB.listColumnFamilies(o, dir.toString())) {
        all.add(new org.rocksdb.ColumnFamilyDescriptor(name));
      }
      List<org.rocksdb.ColumnFamilyHandle> handles = new ArrayList<>();
      try (org.rocksdb.DBOptions dbo = new org.rocksdb.DBOptions();
          org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(dbo, dir.toString(), all, handles)) {
        for (int i = 0; i < all.size(); i++) {
          if (new String(all.get(i).getName(), StandardCharsets.UTF_8).equals("placed")) {
            db.dropColumnFamily(handles.get(i));
          }
        }
        handles.forEach(org.rocksdb.ColumnFamilyHandle::close);
      }
    }
    store = new NamespaceStore(dir);
    assertThat(store.placedFiles("ds-2", 10)).containsExactly(id);
  }
}
