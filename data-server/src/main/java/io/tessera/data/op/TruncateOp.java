package io.tessera.data.op;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.store.ShardStore;
import io.tessera.data.store.WriteBookkeeping;
import java.io.IOException;
import java.util.List;

/**
 * TRUNCATE: cuts a file's shards here, under the stripe locks of what it cuts when the file has
 * parity.
 */
final class TruncateOp implements DataOp {
  private final ShardStore store;
  private final StripeLockTable locks;

  TruncateOp(ShardStore store, StripeLockTable locks) {
    this.store = store;
    this.locks = locks;
  }

  @Override
  public Touches touches(DataRequestProto req) {
    return new Touches(req.getTruncate().getFileId(), List.of());
  }

  @Override
  public Passage passage(DataRequestProto req) {
    return req.getTruncate().hasUnlock() ? Passage.LOCKED_CHANGE : Passage.UNLOCKED_CHANGE;
  }

  /** Cuts the file; under a lock, only while it is still held, releasing it in the same batch. */
  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    TruncateFileRequestProto t = req.getTruncate();
    ByteString client = req.getCaller().getClientId();
    if (t.getKeepLengthsCount() > 255 || t.getMissingServersCount() > 255) {
      throw new IllegalArgumentException(
          "truncate names "
              + t.getKeepLengthsCount()
              + " units and "
              + t.getMissingServersCount()
              + " missing servers; at most 255 of each");
    }
    int[] keep = t.getKeepLengthsList().stream().mapToInt(i -> i).toArray();
    if (!t.hasUnlock()) {
      store.truncateFile(
          t.getFileId(),
          t.getStripe(),
          keep,
          new WriteBookkeeping(null, t.getFileId(), t.getMissingServersList(), t.getStaleMarked()));
      return Replies.ok();
    }
    StripeLockProto lock = t.getUnlock();
    if (lock.getFileId() != t.getFileId()) {
      throw new IllegalArgumentException(
          "a truncate of file " + t.getFileId() + " names a lock of file " + lock.getFileId());
    }
    if (locks.beginWrite(lock, client).isEmpty()) {
      return Replies.error(
          StatusProto.LOCK_LOST,
          "the lock on stripes from "
              + lock.getFirstStripe()
              + " of file "
              + lock.getFileId()
              + " was lost (its lease ran out before this truncate arrived); nothing was cut");
    }
    try {
      store.truncateFile(
          t.getFileId(),
          t.getStripe(),
          keep,
          new WriteBookkeeping(
              StripeLockTable.key(lock, client),
              t.getFileId(),
              t.getMissingServersList(),
              t.getStaleMarked()));
    } catch (IOException | RuntimeException e) {
      locks.endWrite(lock, client);
      throw e;
    }
    boolean waited = locks.writersRefused(lock, client);
    locks.forget(lock, client);
    return Replies.released(waited);
  }
}
