package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DirtyClearRequestProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.store.DirtyFile;
import io.tessera.data.store.ShardStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * DIRTY_CLEAR: recovery rebuilt files on a server; their entries go unless newer writes came since.
 */
final class DirtyClearOp implements DataOp {
  private final ShardStore store;

  DirtyClearOp(ShardStore store) {
    this.store = store;
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    DirtyClearRequestProto d = req.getDirtyClear();
    if (d.getServer().isEmpty() || d.getFileIdsCount() != d.getSequencesCount()) {
      throw new IllegalArgumentException(
          "a dirty-log clear names a server and one sequence per file");
    }
    List<DirtyFile> entries = new ArrayList<>();
    for (int i = 0; i < d.getFileIdsCount(); i++) {
      entries.add(new DirtyFile(d.getServer(), d.getFileIds(i), d.getSequences(i)));
    }
    store.clearDirty(d.getServer(), entries);
    return Replies.ok();
  }
}
