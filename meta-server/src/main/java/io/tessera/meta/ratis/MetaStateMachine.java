package io.tessera.meta.ratis;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.meta.proto.MetaTxnBatchProto;
import io.tessera.meta.proto.MetaTxnBatchReplyProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.proto.PendingSnapshotProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.snapshot.SnapshotViews;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.NamespaceTxn;
import io.tessera.meta.state.ReplicatedChanges;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
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
  private final AtomicLong leaderChanges = new AtomicLong();

  private final Path namespaceDir;
  private final DataServerRegistry registry;
  private final CheckpointSnapshotStorage snapshots = new CheckpointSnapshotStorage();
  private volatile NamespaceStore store;
  private final SnapshotViews snapshotViews;
  private final SnapshotCapture capture;
  private final ReplicatedChanges changes;
  private final CommittedReads reads;
  private final AtomicInteger checkpointsInstalled = new AtomicInteger();

  /** The one client whose requests this replica logs: its own {@link RaftSubmitter}. */
  private volatile ClientId submitter;

  public MetaStateMachine(
      Path namespaceDir,
      SnapshotViews snapshotViews,
      DataServerRegistry registry,
      Duration heartbeatInterval) {
    this.namespaceDir = namespaceDir;
    this.snapshotViews = snapshotViews;
    this.registry = registry;
    this.capture = new SnapshotCapture(snapshotViews);
    this.changes = new ReplicatedChanges(registry, heartbeatInterval);
    this.reads =
        new CommittedReads(
            () -> store,
            snapshotViews,
            registry,
            changes,
            () -> {
              var applied = getLastAppliedTermIndex();
              return applied == null ? 0 : applied.getIndex();
            });
  }

  /**
   * Logs only requests of this replica's own submitter: Ratis serves its client protocol to any
   * peer that reaches the Raft port, and the port's TLS admits meta replicas alone, but an entry
   * nobody here submitted has no business in the log either way.
   */
  public void acceptOnlyFrom(ClientId ownSubmitter) {
    this.submitter = ownSubmitter;
  }

  @Override
  public TransactionContext startTransaction(RaftClientRequest request) throws IOException {
    ClientId own = submitter;
    if (own == null || !own.equals(request.getClientId())) {
      throw new IOException(
          "refused a log entry from Raft client "
              + request.getClientId()
              + ": the meta group logs only what its replicas submit themselves");
    }
    return super.startTransaction(request);
  }

  /** How many times this replica replaced its namespace with a leader's checkpoint. */
  public int checkpointsInstalled() {
    return checkpointsInstalled.get();
  }

  /** The committed namespace (read-only use). */
  /** Leader changes (including to "none, election under way") this replica has seen. */
  public long leaderChanges() {
    return leaderChanges.get();
  }

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
    capture.resume(store);
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
    leaderChanges.incrementAndGet();
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
    capture.awaitLast(); // the previous entry's snapshot checkpoint, before anything changes
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
          MetaTxnBatchProto.parseFrom(
              entry.getStateMachineLogEntry().getLogData().asReadOnlyByteBuffer());
    } catch (InvalidProtocolBufferException e) {
      // every replica refuses the same entry the same way, so the replicas stay identical
      LOG.error("Log entry {} is not a MetaTxnBatchProto; skipped", index);
      batch = MetaTxnBatchProto.getDefaultInstance();
    }
    PendingSnapshotProto committing = SnapshotCapture.committedBy(batch, store);
    MetaTxnBatchReplyProto.Builder out = MetaTxnBatchReplyProto.newBuilder();
    List<Long> dropped;
    try (NamespaceTxn tx = store.begin(index)) {
      for (MetaTxnProto txn : batch.getTxnsList()) {
        MetaTxnReplyProto reply = changes.apply(tx, txn);
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
      capture.start(store, committing, index);
    }
    return CompletableFuture.completedFuture(LogBytes.message(out.build().toByteArray()));
  }

  /** The namespace checkpoints of snapshots on this replica. */
  public SnapshotViews snapshotViews() {
    return snapshotViews;
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    return CompletableFuture.completedFuture(
        LogBytes.message(reads.answer(LogBytes.content(request))));
  }

  @Override
  public long takeSnapshot() throws IOException {
    capture.awaitLast();
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
    capture.awaitLast();
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
    capture.close();
    snapshotViews.close();
    if (store != null) {
      store.close();
    }
  }
}
