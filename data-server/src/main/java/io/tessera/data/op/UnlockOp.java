package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.lock.StripeLockTable;
import java.io.IOException;

/**
 * UNLOCK: a writer gives up its stripe lock without writing (its write failed or was abandoned).
 */
final class UnlockOp implements DataOp {
  private final StripeLockTable locks;

  UnlockOp(StripeLockTable locks) {
    this.locks = locks;
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    boolean waited = locks.writersRefused(req.getUnlock().getLock(), req.getCaller().getClientId());
    locks.release(req.getUnlock().getLock(), req.getCaller().getClientId());
    return Replies.released(waited);
  }
}
