package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.store.ShardStore;
import java.io.IOException;

/** SYNC: a client's fsync, everything stored here so far made durable. */
final class SyncOp implements DataOp {
  private final ShardStore store;

  SyncOp(ShardStore store) {
    this.store = store;
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    store.sync();
    return Replies.ok();
  }
}
