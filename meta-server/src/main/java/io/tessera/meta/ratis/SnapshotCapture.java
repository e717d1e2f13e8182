package io.tessera.meta.ratis;

import io.tessera.common.proto.SnapshotProto;
import io.tessera.meta.proto.MetaTxnBatchProto;
import io.tessera.meta.proto.PendingSnapshotProto;
import io.tessera.meta.snapshot.SnapshotViews;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.SnapshotCatalog;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the namespace checkpoint of each file-system snapshot the log commits, off the apply
 * thread: the commit's reply is not held up by it, the next entry (or a Ratis snapshot, or a pause)
 * waits for it first, and readers of the snapshot wait until it is there. The commit left a mark in
 * the store, so a replica killed before the checkpoint takes it when it starts.
 */
final class SnapshotCapture implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotCapture.class);

  private final SnapshotViews views;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "snapshot-capture");
            t.setDaemon(true);
            return t;
          });

  /** The checkpoint of the snapshot committed by the last applied entry (never fails). */
  private volatile CompletableFuture<Void> capture = CompletableFuture.completedFuture(null);

  SnapshotCapture(SnapshotViews views) {
    this.views = views;
  }

  /**
   * The snapshot this entry commits, or null. A snapshot's commit travels alone in its log entry,
   * so the namespace right after applying it is the namespace at the snapshot's log position (the
   * commit itself changes only the snapshot catalog and the epoch).
   */
  static PendingSnapshotProto committedBy(MetaTxnBatchProto batch, NamespaceStore store) {
    if (batch.getTxnsCount() != 1 || !batch.getTxns(0).hasSnapshotCommit()) {
      return null;
    }
    PendingSnapshotProto pending = store.pendingSnapshot();
    return SnapshotCatalog.commits(pending, batch.getTxns(0).getSnapshotCommit()) ? pending : null;
  }

  /** A store opened after a kill between a snapshot's commit and its checkpoint: take it now. */
  void resume(NamespaceStore store) {
    long uncaptured = store.capturePending();
    if (uncaptured < 0) {
      return;
    }
    // nothing was applied after the commit, so the store is still the namespace at the snapshot
    String name =
        store.snapshots().stream()
            .filter(sn -> sn.getEpoch() == uncaptured)
            .map(SnapshotProto::getName)
            .findFirst()
            .orElse("?");
    take(store, name, uncaptured, store.appliedIndex());
  }

  /** Starts the checkpoint of the snapshot just committed at log index {@code index}. */
  void start(NamespaceStore store, PendingSnapshotProto committed, long index) {
    capture =
        CompletableFuture.runAsync(
            () -> take(store, committed.getName(), committed.getEpoch(), index), thread);
    views.capturing(committed.getEpoch(), capture);
  }

  /** Waits for the checkpoint of a snapshot committed by the last applied entry. */
  void awaitLast() {
    capture.join();
  }

  private void take(NamespaceStore store, String name, long epoch, long index) {
    try {
      long started = System.nanoTime();
      views.capture(store, epoch);
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

  @Override
  public void close() {
    awaitLast();
    thread.shutdown();
  }
}
