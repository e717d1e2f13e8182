package io.tessera.data.op;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.LockReadRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.snapshot.WriteGate;
import io.tessera.data.store.ShardStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** LOCK_READ: phase 1 of a write or a rebuild, a stripe lock and the units it reads under it. */
final class LockReadOp implements DataOp {
  private final ShardStore store;
  private final StripeLockTable locks;
  private final WriteGate gate;
  private final ShardReads reads;

  LockReadOp(ShardStore store, StripeLockTable locks, WriteGate gate, ShardReads reads) {
    this.store = store;
    this.locks = locks;
    this.gate = gate;
    this.reads = reads;
  }

  @Override
  public Touches touches(DataRequestProto req) {
    return new Touches(req.getLockRead().getLock().getFileId(), List.of());
  }

  @Override
  public long readBytes(DataRequestProto req) {
    return ShardReads.bytesOf(req.getLockRead().getReadsList());
  }

  /** A writer's lock comes before anything it stores; recovery locks servers it only reads from. */
  @Override
  public boolean needsSpace(DataRequestProto req) {
    return !req.getRecovery();
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    LockReadRequestProto lr = req.getLockRead();
    ByteString client = req.getCaller().getClientId();
    ShardReads.checkRanges(lr.getReadsList());
    StringBuilder closed = new StringBuilder();
    StripeLockTable.Outcome got =
        gate.grantLock(
            () -> {
              try {
                return locks.tryLock(
                    lr.getLock(), client, req.getRecovery(), lr.getUnitsStaleHere(), store.epoch());
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            },
            closed);
    if (got == null) {
      return Replies.error(StatusProto.BUSY, closed.toString());
    }
    if (got instanceof StripeLockTable.Refused refused) {
      return Replies.error(StatusProto.BUSY, refused.holder());
    }
    try {
      return reads.read(
          lr.getReadsList(),
          false,
          Long.MAX_VALUE,
          store.dirtyServers(lr.getLock().getFileId()),
          ((StripeLockTable.Granted) got).epoch(),
          lr.getWithVersions());
    } catch (IOException | RuntimeException e) {
      locks.release(lr.getLock(), client);
      throw e;
    }
  }
}
