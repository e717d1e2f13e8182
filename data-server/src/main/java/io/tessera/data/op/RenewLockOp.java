package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.lock.StripeLockTable;
import java.util.concurrent.CompletableFuture;

/**
 * RENEW_LOCK: a writer waiting under its stripe lock says it is alive. Answered at once, ahead of
 * the worker queue: a renewal that waited behind the queue it is about would come too late.
 */
final class RenewLockOp implements DataOp {
  private final StripeLockTable locks;

  RenewLockOp(StripeLockTable locks) {
    this.locks = locks;
  }

  @Override
  public CompletableFuture<RpcReply> answerWithoutAdmission(DataRequestProto req) {
    return CompletableFuture.completedFuture(execute(req, null));
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) {
    try {
      return locks.renew(req.getRenewLock().getLock(), req.getCaller().getClientId())
          ? Replies.ok()
          : Replies.error(
              StatusProto.LOCK_LOST,
              "this server no longer holds the lock: its lease ran out and recovery took it over");
    } catch (IllegalArgumentException e) {
      return Replies.error(StatusProto.INVALID_ARGUMENT, e.getMessage());
    }
  }
}
