package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.recovery.ServingState;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** READ: ranges of shards, live or at a snapshot (then after the writes it holds landed). */
final class ReadOp implements DataOp {
  private final ShardReads reads;
  private final StripeLockTable locks;
  private final ServingState serving;

  ReadOp(ShardReads reads, StripeLockTable locks, ServingState serving) {
    this.reads = reads;
    this.locks = locks;
    this.serving = serving;
  }

  /**
   * A recovering server answers a client's read with every unit unavailable, so readers decode
   * around it until the shards it missed are rebuilt. It still takes writes and locks, so it does
   * not fall further behind (writers skip it only for files stale on it).
   */
  @Override
  public CompletableFuture<RpcReply> answerWithoutAdmission(DataRequestProto req) {
    if (req.getRecovery() || !serving.recovering()) {
      return null;
    }
    ReadShardsResponseProto.Builder r = ReadShardsResponseProto.newBuilder();
    for (int i = 0; i < Math.min(req.getRead().getRangesCount(), 100_000); i++) {
      r.addStates(ShardStateProto.SHARD_UNAVAILABLE).addStoredLengths(0);
    }
    return CompletableFuture.completedFuture(
        RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).setRead(r).build()));
  }

  /** Reads at a snapshot keep the layout the snapshot recorded and are never refused. */
  @Override
  public Touches touches(DataRequestProto req) {
    return req.getRead().getAtSnapshot()
        ? Touches.NOTHING
        : new Touches(-1, req.getRead().getRangesList());
  }

  @Override
  public long readBytes(DataRequestProto req) {
    return req.getRead().getProbe() ? 0 : ShardReads.bytesOf(req.getRead().getRangesList());
  }

  @Override
  public CompletableFuture<Void> waitsFor(DataRequestProto req) {
    ReadShardsRequestProto r = req.getRead();
    return !r.getAtSnapshot()
        ? null
        : SnapshotLanding.bounded(
            locks.whenLanded(r.getRangesList(), r.getSnapshotEpoch()), r.getSnapshotEpoch());
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    ReadShardsRequestProto r = req.getRead();
    return reads.read(
        r.getRangesList(),
        r.getProbe(),
        r.getAtSnapshot() ? r.getSnapshotEpoch() : Long.MAX_VALUE,
        List.of(),
        0,
        r.getWithVersions());
  }
}
