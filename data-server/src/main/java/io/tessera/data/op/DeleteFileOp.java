package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.store.ShardStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** DELETE_FILE: the meta leader reclaims deleted files' shards, or a copy recovery moved away. */
final class DeleteFileOp implements DataOp {
  /** Files one delete request may remove (the meta leader's reclaim batches stay below it). */
  static final int MAX_FILES_PER_DELETE = 1024;

  private final ShardStore store;

  DeleteFileOp(ShardStore store) {
    this.store = store;
  }

  @Override
  public Passage passage(DataRequestProto req) {
    return Passage.UNLOCKED_CHANGE;
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    DeleteFileRequestProto d = req.getDeleteFile();
    if (d.getMoreFileIdsCount() >= MAX_FILES_PER_DELETE) {
      throw new IllegalArgumentException(
          "a delete names "
              + (d.getMoreFileIdsCount() + 1)
              + " files; at most "
              + MAX_FILES_PER_DELETE
              + " in one request");
    }
    List<Long> files = new ArrayList<>(d.getMoreFileIdsCount() + 1);
    files.add(d.getFileId());
    files.addAll(d.getMoreFileIdsList());
    if (!d.getMovedAway()) {
      store.deleteFiles(files);
      return Replies.ok();
    }
    for (long fileId : files) {
      store.dropCopy(fileId);
    }
    return Replies.ok();
  }
}
