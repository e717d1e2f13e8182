package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.DirtyScanRequestProto;
import io.tessera.common.proto.DirtyScanResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.store.DirtyFile;
import io.tessera.data.store.ShardStore;
import java.io.IOException;

/** DIRTY_SCAN: recovery asks which files writes went around a server for (all, or one file). */
final class DirtyScanOp implements DataOp {
  private final ShardStore store;

  DirtyScanOp(ShardStore store) {
    this.store = store;
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    DirtyScanRequestProto d = req.getDirtyScan();
    DirtyScanResponseProto.Builder out = DirtyScanResponseProto.newBuilder();
    for (DirtyFile f :
        store.dirtyFiles(
            d.getServer().isEmpty() ? null : d.getServer(), d.getOneFile() ? d.getFileId() : -1)) {
      out.addFileIds(f.fileId()).addSequences(f.sequence()).addServers(f.missingServer());
    }
    return RpcReply.of(
        DataResponseProto.newBuilder().setStatus(StatusProto.OK).setDirty(out).build());
  }
}
