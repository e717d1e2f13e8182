package io.tessera.meta.ratis;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.HeartbeatResponseProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.SnapshotListResponseProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.HeartbeatQueryReplyProto;
import io.tessera.meta.proto.MetaQueryProto;
import io.tessera.meta.proto.MetaTxnBatchProto;
import io.tessera.meta.proto.MetaTxnBatchReplyProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.proto.PendingSnapshotProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.snapshot.SnapshotViews;
import io.tessera.meta.state.NamespaceChanges;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceQueries;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.NamespaceTxn;
import io.tessera.meta.state.PartialFiles;
import io.tessera.meta.state.Replies;
import io.tessera.meta.state.ServerStates;
import io.tessera.meta.state.SnapshotCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.apache.ratis.util.FileUtils;
import org.apache.ratis.util.LifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meta group's replicated state. Each log entry is a batch of changes (group commit); they are
 * applied in order inside one namespace transaction committed with the entry's index, each
 * producing its own reply. Reads ({@link #query}) see only committed entries.
 */
public final class MetaStateMachine extends BaseStateMachine {
  private static final Logger LOG = LoggerFactory.getLogger(MetaStateMachine.class);

  private final Path namespaceDir;
  private final DataServerRegistry registry;
  private final Duration heartbeatInterval;
  private final CheckpointSnapshotStorage snapshots = new CheckpointSnapshotStorage();
  private final ReplyCache replies = new ReplyCache(200_000);
  private volatile NamespaceStore store;
  private final SnapshotViews snapshotViews;
  private final AtomicInteger checkpointsInstalled = new AtomicInteger();
  private final ExecutorService captureThread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "snapshot-capture");
            t.setDaemon(true);
            return t;
          });

  /** The namespace checkpoint of the snapshot committed by the last applied entry (never fails). */
  private volatile CompletableFuture<Void> capture = CompletableFuture.completedFuture(null);

  public MetaStateMachine(
      Path namespaceDir,
      SnapshotViews snapshotViews,
      DataServerRegistry registry,
      Duration heartbeatInterval) {
    this.namespaceDir = namespaceDir;
    this.snapshotViews = snapshotViews;
    this.registry = registry;
    this.heartbeatInterval = heartbeatInterval;
  }

  /** How many times this replica replaced its namespace with a leader's checkpoint. */
  public int checkpointsInstalled() {
    return checkpointsInstalled.get();
  }

  /** The committed namespace (read-only use). */
  public NamespaceStore store() {
    return store;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage)
      throws IOException {
    super.initialize(server, groupId, raftStorage);
    snapshots.init(raftStorage);
    // RUNNING, so that Ratis can pause the state machine to install a leader's checkpoint
    getLifeCycle().startAndTransition(this::openStore, IOException.class);
  }

  private void openStore() throws IOException {
    store = new NamespaceStore(namespaceDir);
    long uncaptured = store.capturePending();
    if (uncaptured >= 0) {
      // killed between applying a snapshot's commit and taking its checkpoint: nothing was
      // applied after the commit, so the store is still the namespace at the snapshot
      String name =
          store.snapshots().stream()
              .filter(sn -> sn.getEpoch() == uncaptured)
              .map(SnapshotProto::getName)
              .findFirst()
              .orElse("?");
      capture(name, uncaptured, store.appliedIndex());
    }
    registry.load(store.registeredServers());
    // Ratis replays the log from its newest snapshot; the store may be further ahead, and
    // applyTransaction skips what it already holds.
    Path latest = snapshots.latestDir();
    if (latest != null) {
      TermIndex ti = CheckpointSnapshotStorage.termIndexOf(latest);
      updateLastAppliedTermIndex(ti.getTerm(), ti.getIndex());
    }
  }

  @Override
  public StateMachineStorage getStateMachineStorage() {
    return snapshots;
  }

  @Override
  public SnapshotInfo getLatestSnapshot() {
    return snapshots.getLatestSnapshot();
  }

  @Override
  public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId newLeader) {
    LOG.info(
        "Meta leader is now {}", newLeader == null ? "unknown (election under way)" : newLeader);
    NamespaceStore s = store;
    if (s == null) {
      return;
    }
    // heartbeats that changed nothing went to the old leader alone (see DataServerRegistry)
    registry.leaderChanged(
        newLeader == null ? null : newLeader.toString(),
        member.getPeerId().equals(newLeader),
        () ->
            s.registeredServers().keySet().stream()
                .filter(
                    id -> {
                      ServerStateRecordProto r = s.serverStates().get(id);
                      return r == null
                          || r.getState() == DataServerStateProto.UP
                          || r.getState() == DataServerStateProto.RECOVERING;
                    })
                .toList());
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    captureNow(); // the previous entry's snapshot checkpoint, before anything changes
    LogEntryProto entry = trx.getLogEntry();
    long index = entry.getIndex();
    long term = entry.getTerm();
    if (index <= store.appliedIndex()) {
      // already in the store: a restart replays the log from the last checkpoint
      updateLastAppliedTermIndex(term, index);
      return CompletableFuture.completedFuture(Message.EMPTY);
    }
    MetaTxnBatchProto batch;
    try {
      batch =
          MetaTxnBatchProto.parseFrom(entry.getStateMachineLogEntry().getLogData().toByteArray());
    } catch (InvalidProtocolBufferException e) {
      // every replica refuses the same entry the same way, so the replicas stay identical
      LOG.error("Log entry {} is not a MetaTxnBatchProto; skipped", index);
      batch = MetaTxnBatchProto.getDefaultInstance();
    }
    PendingSnapshotProto committing = committingSnapshot(batch);
    MetaTxnBatchReplyProto.Builder out = MetaTxnBatchReplyProto.newBuilder();
    List<Long> dropped;
    try (NamespaceTxn tx = store.begin(index)) {
      for (MetaTxnProto txn : batch.getTxnsList()) {
        MetaTxnReplyProto reply = apply(tx, txn);
        out.addReplies(
            reply.hasClient() && reply.getClient().getIndex() == 0
                ? reply.toBuilder().setClient(reply.getClient().toBuilder().setIndex(index)).build()
                : reply);
      }
      if (committing != null) {
        tx.setCapturePending(committing.getEpoch());
      }
      tx.commit(term, index);
      dropped = List.copyOf(tx.droppedSnapshots());
    }
    dropped.forEach(snapshotViews::drop);
    updateLastAppliedTermIndex(term, index);
    if (committing != null) {
      startCapture(committing.getName(), committing.getEpoch(), index);
    }
    return CompletableFuture.completedFuture(
        Message.valueOf(ByteString.copyFrom(out.build().toByteArray())));
  }

  /**
   * The snapshot this entry commits, or null. A snapshot's commit travels alone in its log entry,
   * so the namespace right after applying it is the namespace at the snapshot's log position (the
   * commit itself changes only the snapshot catalog and the epoch).
   */
  private PendingSnapshotProto committingSnapshot(MetaTxnBatchProto batch) {
    if (batch.getTxnsCount() != 1 || !batch.getTxns(0).hasSnapshotCommit()) {
      return null;
    }
    PendingSnapshotProto pending = store.pendingSnapshot();
    return SnapshotCatalog.commits(pending, batch.getTxns(0).getSnapshotCommit()) ? pending : null;
  }

  /**
   * Takes the namespace checkpoint of the snapshot just committed on the capture thread, so that
   * the commit's reply is not held up by it; the next entry (or a Ratis snapshot, or a pause) waits
   * for it first. Until then readers of the snapshot wait too. The commit left a mark in the store,
   * so a replica killed before the checkpoint takes it when it starts.
   */
  private void startCapture(String name, long epoch, long index) {
    capture = CompletableFuture.runAsync(() -> capture(name, epoch, index), captureThread);
    snapshotViews.capturing(epoch, capture);
  }

  private void capture(String name, long epoch, long index) {
    try {
      long started = System.nanoTime();
      snapshotViews.capture(store, epoch);
      store.captureDone();
      LOG.info(
          "Snapshot '{}' (epoch {}): namespace checkpoint taken at log index {} in {} ms",
          name,
          epoch,
          index,
          TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    } catch (IOException | RuntimeException e) {
      // every replica must apply the entry; this one serves no reads of the snapshot until repaired
      LOG.error(
          "Snapshot '{}': namespace checkpoint failed on this replica: {}", name, e.getMessage());
    }
  }

  /** Waits for the checkpoint of a snapshot committed by the last applied entry. */
  private void captureNow() {
    capture.join();
  }

  private MetaTxnReplyProto apply(NamespaceTxn tx, MetaTxnProto txn) {
    switch (txn.getTxnCase()) {
      case CLIENT -> {
        MetaRequestProto req = txn.getClient();
        var client = req.getCaller().getClientId();
        MetaResponseProto earlier = replies.get(client, req.getCallId());
        MetaResponseProto reply =
            earlier != null
                ? earlier
                : req.hasSnapshotDelete()
                    ? catalogChange(
                        tx, () -> SnapshotCatalog.drop(tx, req.getSnapshotDelete().getName()))
                    : NamespaceChanges.apply(tx, req, txn.getTimeMs());
        replies.put(client, req.getCallId(), reply);
        return MetaTxnReplyProto.newBuilder().setClient(reply).build();
      }
      case HEARTBEAT -> {
        HeartbeatRequestProto hb = txn.getHeartbeat();
        if (registry.heartbeat(hb)) {
          tx.registerServer(hb);
        }
        ServerStates.corrupt(tx, hb.getServerId(), hb.getCorruptFilesList());
        if (hb.getGateAttempt() != 0 && SnapshotCatalog.abort(tx, hb.getGateAttempt())) {
          LOG.warn(
              "Snapshot attempt {} aborted: data server {} waited too long for its COMMIT",
              hb.getGateAttempt(),
              hb.getServerId());
        }
        return MetaTxnReplyProto.newBuilder()
            .setHeartbeat(
                heartbeatReply(
                    tx.epoch(),
                    tx.retainedEpochs(),
                    ServerStates.heard(tx, hb.getServerId(), txn.getTimeMs())))
            .build();
      }
      case SNAPSHOT_BEGIN -> {
        return client(catalogChange(tx, () -> SnapshotCatalog.begin(tx, txn.getSnapshotBegin())));
      }
      case SNAPSHOT_COMMIT -> {
        return client(
            catalogChange(
                tx, () -> SnapshotCatalog.commit(tx, txn.getSnapshotCommit(), txn.getTimeMs())));
      }
      case SNAPSHOT_ABORT -> {
        SnapshotCatalog.abort(tx, txn.getSnapshotAbort().getAttempt());
        return client(Replies.error(StatusProto.OK, ""));
      }
      case SERVER_STATE -> {
        boolean changed = ServerStates.change(tx, txn.getServerState(), txn.getTimeMs());
        if (changed && txn.getServerState().getRemoved()) {
          registry.forget(txn.getServerState().getServer());
        }
        return client(
            Replies.error(
                changed ? StatusProto.OK : StatusProto.BUSY, changed ? "" : "state unchanged"));
      }
      case REBUILD_DONE -> {
        ServerStates.rebuilt(tx, txn.getRebuildDone());
        return client(Replies.error(StatusProto.OK, ""));
      }
      case LAYOUT_MOVE -> {
        boolean moved = ServerStates.moved(tx, txn.getLayoutMove());
        return client(
            Replies.error(
                moved ? StatusProto.OK : StatusProto.BUSY,
                moved ? "" : "layout changed meanwhile"));
      }
      case PARTIAL_EXPIRED -> {
        boolean removed =
            tx.atomically(
                () ->
                    PartialFiles.expire(tx, txn.getPartialExpired().getFileId(), txn.getTimeMs()));
        return client(
            Replies.error(
                removed ? StatusProto.OK : StatusProto.BUSY, removed ? "" : "renewed or gone"));
      }
      case LEFTOVER_DROPPED -> {
        tx.leftoverDropped(
            txn.getLeftoverDropped().getFileId(), txn.getLeftoverDropped().getServer());
        return client(Replies.error(StatusProto.OK, ""));
      }
      case RECLAIM_DONE -> {
        tx.reclaimDone(txn.getReclaimDone().getFileId());
        txn.getReclaimDone().getMoreFileIdsList().forEach(tx::reclaimDone);
        return MetaTxnReplyProto.newBuilder().setClient(Replies.error(StatusProto.OK, "")).build();
      }
      default -> {
        return MetaTxnReplyProto.newBuilder()
            .setClient(Replies.error(StatusProto.INVALID_ARGUMENT, "empty log record"))
            .build();
      }
    }
  }

  private static MetaTxnReplyProto client(MetaResponseProto r) {
    return MetaTxnReplyProto.newBuilder().setClient(r).build();
  }

  private static MetaResponseProto catalogChange(
      NamespaceTxn tx, Supplier<MetaResponseProto> change) {
    try {
      return tx.atomically(change);
    } catch (NamespaceException e) {
      return Replies.error(e.status(), e.getMessage());
    }
  }

  /** The namespace checkpoints of snapshots on this replica. */
  public SnapshotViews snapshotViews() {
    return snapshotViews;
  }

  private HeartbeatResponseProto heartbeatReply(
      long epoch, long[] retainedEpochs, DataServerStateProto state) {
    HeartbeatResponseProto.Builder r =
        HeartbeatResponseProto.newBuilder()
            .setStatus(StatusProto.OK)
            .setEpoch(epoch)
            .setHeartbeatIntervalMs(heartbeatInterval.toMillis())
            .setState(state);
    for (long e : retainedEpochs) {
      r.addRetainedEpochs(e);
    }
    return r.build();
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    MetaQueryProto q;
    try {
      q = MetaQueryProto.parseFrom(request.getContent().toByteArray());
    } catch (InvalidProtocolBufferException e) {
      return reply(
          Replies.error(StatusProto.INVALID_ARGUMENT, "unreadable query: " + e.getMessage())
              .toByteArray());
    }
    return q.hasHeartbeat()
        ? reply(answerHeartbeat(q.getHeartbeat()).toByteArray())
        : reply(clientQuery(q.getClient()));
  }

  private static CompletableFuture<Message> reply(byte[] bytes) {
    return CompletableFuture.completedFuture(Message.valueOf(ByteString.copyFrom(bytes)));
  }

  /**
   * A heartbeat answered without a log entry, on the leader, when it changes nothing replicated:
   * the liveness it brings stays in this replica's registry (a replica that takes over from a
   * leader counts the servers not DOWN as heard then, see {@link #notifyLeaderChanged}).
   */
  private HeartbeatQueryReplyProto answerHeartbeat(HeartbeatRequestProto hb) {
    NamespaceStore s = store;
    ServerStateRecordProto rec = s.serverStates().get(hb.getServerId());
    DataServerStateProto state = rec == null ? DataServerStateProto.UP : rec.getState();
    boolean unchanged =
        hb.getAddress().equals(registry.address(hb.getServerId()))
            && hb.getCorruptFilesCount() == 0
            && hb.getGateAttempt() == 0
            && (state == DataServerStateProto.UP || state == DataServerStateProto.RECOVERING);
    if (!unchanged) {
      return HeartbeatQueryReplyProto.newBuilder().setNeedsLog(true).build();
    }
    registry.heartbeat(hb);
    long[] retained = s.snapshots().stream().mapToLong(SnapshotProto::getEpoch).sorted().toArray();
    return HeartbeatQueryReplyProto.newBuilder()
        .setReply(heartbeatReply(s.epoch(), retained, state))
        .build();
  }

  private byte[] clientQuery(MetaRequestProto req) {
    MetaResponseProto reply;
    try {
      reply =
          switch (req.getOpCase()) {
            case GET_ATTR ->
                SnapshotViews.isSnapshotPath(req.getGetAttr().getPath())
                    ? snapshotViews.getAttr(store, req.getGetAttr())
                    : NamespaceQueries.getAttr(store, req.getGetAttr());
            case READ_DIR ->
                SnapshotViews.isSnapshotPath(req.getReadDir().getPath())
                    ? snapshotViews.readDir(store, req.getReadDir())
                    : NamespaceQueries.readDir(store, req.getReadDir());
            case SNAPSHOT_LIST ->
                MetaResponseProto.newBuilder()
                    .setStatus(StatusProto.OK)
                    .setSnapshots(
                        SnapshotListResponseProto.newBuilder()
                            .addAllSnapshots(store.snapshots())
                            .setEpoch(store.epoch()))
                    .build();
            default ->
                Replies.error(StatusProto.INVALID_ARGUMENT, req.getOpCase() + " is not a read");
          };
    } catch (NamespaceException e) {
      reply = Replies.error(e.status(), e.getMessage());
    }
    // what a client has seen: a replica answering its reads while no leader does must have applied
    // it. The newest change to what was read, where the inodes record it; else all this replica
    // applied
    if (reply.getIndex() == 0) {
      var applied = getLastAppliedTermIndex();
      reply =
          reply.toBuilder().setIndex(applied == null ? 0 : Math.max(0, applied.getIndex())).build();
    }
    return reply.toByteArray();
  }

  @Override
  public long takeSnapshot() throws IOException {
    captureNow();
    long index = store.appliedIndex();
    long term = store.appliedTerm();
    if (index < 0) {
      return -1;
    }
    Path target = snapshots.newCheckpointDir(term, index);
    if (!Files.exists(target)) {
      Path tmp = snapshots.tmpCheckpointDir(term, index);
      FileUtils.deleteFully(tmp.toFile());
      store.checkpoint(tmp);
      snapshotViews.linkInto(
          tmp.resolve(CheckpointSnapshotStorage.FS_SNAPSHOTS), store.snapshots());
      Files.move(tmp, target);
      snapshots.refresh();
      LOG.info("Namespace checkpoint at log index {} taken", index);
    }
    snapshots.cleanupOldSnapshots(null);
    return index;
  }

  /** Ratis pauses the state machine before it installs a leader's checkpoint in its place. */
  @Override
  public void pause() {
    captureNow();
    getLifeCycle().transition(LifeCycle.State.PAUSING);
    getLifeCycle().transition(LifeCycle.State.PAUSED);
  }

  /** After Ratis installed a leader's checkpoint: rebuild the live store from it. */
  @Override
  public void reinitialize() throws IOException {
    snapshots.refresh();
    getLifeCycle().startAndTransition(this::rebuildFromLatestCheckpoint, IOException.class);
  }

  private void rebuildFromLatestCheckpoint() throws IOException {
    Path latest = snapshots.latestDir();
    if (latest == null) {
      return;
    }
    store.close();
    FileUtils.deleteFully(namespaceDir.toFile());
    Files.createDirectories(namespaceDir);
    try (Stream<Path> files = Files.list(latest)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.endsWith(".md5") || Files.isDirectory(f)) {
          continue;
        }
        if (name.endsWith(".sst")) {
          Files.createLink(namespaceDir.resolve(name), f);
        } else {
          Files.copy(f, namespaceDir.resolve(name));
        }
      }
    }
    openStore();
    snapshotViews.adopt(latest.resolve(CheckpointSnapshotStorage.FS_SNAPSHOTS), store.snapshots());
    checkpointsInstalled.incrementAndGet();
    LOG.info(
        "Namespace rebuilt from the leader's checkpoint at log index {}", store.appliedIndex());
  }

  @Override
  public void close() throws IOException {
    super.close();
    captureNow();
    captureThread.shutdown();
    snapshotViews.close();
    if (store != null) {
      store.close();
    }
  }
}
