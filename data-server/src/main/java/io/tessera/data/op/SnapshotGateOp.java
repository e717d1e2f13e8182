package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.SnapshotGateRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.snapshot.SnapshotParticipant;
import io.tessera.data.snapshot.WriteGate;
import io.tessera.data.store.EpochState;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * SNAPSHOT_GATE: the meta leader's PREPARE / COMMIT / ABORT of a snapshot. It drives the write gate
 * itself, so it passes no admission.
 */
final class SnapshotGateOp implements DataOp {
  /** Most retained snapshots a gate request may name. */
  static final int MAX_RETAINED = 100_000;

  private final SnapshotParticipant snapshots;
  private final WriteGate gate;

  SnapshotGateOp(SnapshotParticipant snapshots, WriteGate gate) {
    this.snapshots = snapshots;
    this.gate = gate;
  }

  @Override
  public CompletableFuture<RpcReply> answerWithoutAdmission(DataRequestProto req) {
    try {
      return step(req.getSnapshotGate());
    } catch (IllegalArgumentException e) {
      return CompletableFuture.completedFuture(
          Replies.error(StatusProto.INVALID_ARGUMENT, e.getMessage()));
    }
  }

  private CompletableFuture<RpcReply> step(SnapshotGateRequestProto g) {
    if (g.getRetainedEpochsCount() > MAX_RETAINED) {
      throw new IllegalArgumentException(
          "a gate request names "
              + g.getRetainedEpochsCount()
              + " snapshots; at most "
              + MAX_RETAINED);
    }
    long[] retained = g.getRetainedEpochsList().stream().mapToLong(Long::longValue).toArray();
    switch (g.getStep()) {
      case PREPARE -> {
        if (g.getDrainTimeoutMs() < 1 || g.getDrainTimeoutMs() > 60_000) {
          throw new IllegalArgumentException(
              "drain timeout " + g.getDrainTimeoutMs() + " ms is not in 1..60000");
        }
        return snapshots
            .prepare(
                g.getAttempt(),
                new EpochState(g.getEpoch(), retained),
                Duration.ofMillis(g.getDrainTimeoutMs()))
            .thenApply(busy -> busy == null ? Replies.ok() : Replies.error(StatusProto.BUSY, busy));
      }
      case COMMIT -> {
        if (g.getNewEpoch() <= g.getEpoch()) {
          throw new IllegalArgumentException(
              "COMMIT must move the epoch forward ("
                  + g.getEpoch()
                  + " to "
                  + g.getNewEpoch()
                  + ")");
        }
        gate.commit(g.getAttempt(), new EpochState(g.getNewEpoch(), retained));
        return CompletableFuture.completedFuture(Replies.ok());
      }
      case ABORT -> {
        gate.abort(g.getAttempt());
        return CompletableFuture.completedFuture(Replies.ok());
      }
      default -> throw new IllegalArgumentException("snapshot gate request names no step");
    }
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) {
    throw new IllegalStateException("a snapshot gate step is answered without admission");
  }
}
