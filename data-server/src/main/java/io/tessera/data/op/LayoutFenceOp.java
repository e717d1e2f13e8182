package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.store.ShardStore;
import java.io.IOException;

/**
 * LAYOUT_FENCE: recovery moved a file's shards; requests planned with an older layout are refused
 * here.
 */
final class LayoutFenceOp implements DataOp {
  private final ShardStore store;

  LayoutFenceOp(ShardStore store) {
    this.store = store;
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    store.fenceLayout(req.getLayoutFence().getFileId(), req.getLayoutFence().getGeneration());
    return Replies.ok();
  }
}
