package io.tessera.meta.server;

import io.tessera.meta.proto.MetaTxnBatchProto;
import io.tessera.meta.proto.MetaTxnBatchReplyProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.ratis.LogBytes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleConsumer;
import org.apache.ratis.protocol.RaftClientReply;

/**
 * Group commit on the leader. A change that arrives while entries are in flight waits and travels
 * with the others that arrived meanwhile in the next entry; each gets its own reply. One Raft entry
 * per change would cap the namespace at a few hundred changes/s on a small machine.
 *
 * <p>How many entries may be in flight depends on the backlog: how many changes were outstanding
 * (waiting, or in flight) when entries committed, averaged over the last few. Above {@code
 * groupCommitAbove} (by default 0: always) the leader keeps one entry in flight and sends
 * everything that arrived meanwhile in the next: each entry costs every replica CPU (log, append,
 * fsync, apply) whatever it carries, so fewer, fuller entries commit more changes for the same CPU.
 * A backlog at or below it (a few clients that each wait for their change, on replicas with CPU to
 * spare) is pipelined, up to {@code maxInFlight} entries, so no change waits for another's round.
 * The average is taken at commits, not arrivals, because right after a full entry commits hardly
 * anything waits yet.
 */
final class TxnBatcher {
  /** Where entries go: the Raft log (a test's fake). */
  interface Log {
    CompletableFuture<RaftClientReply> write(byte[] entry);
  }

  private record Pending(
      MetaTxnProto txn, CompletableFuture<MetaTxnReplyProto> reply, boolean alone) {}

  private final Log log;
  private final int maxBatch;
  private final int maxInFlight;
  private final int groupCommitAbove;
  private final ArrayDeque<Pending> queue = new ArrayDeque<>();
  private final DoubleConsumer commitSeconds;
  private int inFlight;
  private int changesInFlight;

  /** Changes outstanding when entries committed, a moving average (weight 1/8 to the newest). */
  private double backlog;

  TxnBatcher(
      Log log, int maxBatch, int maxInFlight, int groupCommitAbove, DoubleConsumer commitSeconds) {
    this.log = log;
    this.commitSeconds = commitSeconds;
    this.maxBatch = maxBatch;
    this.maxInFlight = maxInFlight;
    this.groupCommitAbove = groupCommitAbove;
  }

  CompletableFuture<MetaTxnReplyProto> submit(MetaTxnProto txn) {
    return enqueue(new Pending(txn, new CompletableFuture<>(), false));
  }

  /**
   * Logs a change in an entry of its own (a snapshot commit: the entry marks the snapshot's
   * position).
   */
  CompletableFuture<MetaTxnReplyProto> submitAlone(MetaTxnProto txn) {
    return enqueue(new Pending(txn, new CompletableFuture<>(), true));
  }

  private CompletableFuture<MetaTxnReplyProto> enqueue(Pending p) {
    synchronized (this) {
      queue.add(p);
    }
    drain();
    return p.reply;
  }

  private void drain() {
    while (true) {
      List<Pending> batch;
      synchronized (this) {
        if (inFlight >= entriesAllowed() || queue.isEmpty()) {
          return;
        }
        batch = new ArrayList<>(Math.min(queue.size(), maxBatch));
        while (!queue.isEmpty()
            && batch.size() < maxBatch
            && (batch.isEmpty() || !queue.peek().alone)) {
          batch.add(queue.poll());
          if (batch.get(0).alone) {
            break;
          }
        }
        inFlight++;
        changesInFlight += batch.size();
      }
      MetaTxnBatchProto.Builder entry = MetaTxnBatchProto.newBuilder();
      batch.forEach(p -> entry.addTxns(p.txn));
      long start = System.nanoTime();
      log.write(entry.build().toByteArray())
          .whenComplete(
              (reply, err) -> {
                commitSeconds.accept((System.nanoTime() - start) / 1e9);
                synchronized (this) {
                  backlog += (queue.size() + changesInFlight - backlog) / 8;
                  inFlight--;
                  changesInFlight -= batch.size();
                }
                complete(batch, reply, err);
                drain();
              });
    }
  }

  private int entriesAllowed() {
    return backlog > groupCommitAbove ? 1 : maxInFlight;
  }

  private static void complete(List<Pending> batch, RaftClientReply reply, Throwable err) {
    if (err == null && !reply.isSuccess()) {
      err = reply.getException();
    }
    if (err != null) {
      for (Pending p : batch) {
        p.reply.completeExceptionally(err);
      }
      return;
    }
    MetaTxnBatchReplyProto replies;
    try {
      replies = MetaTxnBatchReplyProto.parseFrom(LogBytes.content(reply));
    } catch (Exception e) {
      batch.forEach(p -> p.reply.completeExceptionally(e));
      return;
    }
    for (int i = 0; i < batch.size(); i++) {
      if (i < replies.getRepliesCount()) {
        batch.get(i).reply.complete(replies.getReplies(i));
      } else {
        batch
            .get(i)
            .reply
            .completeExceptionally(new IllegalStateException("log entry replied to fewer changes"));
      }
    }
  }
}
