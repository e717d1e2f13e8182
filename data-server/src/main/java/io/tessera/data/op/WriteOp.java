package io.tessera.data.op;

import com.google.protobuf.ByteString;
import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.store.ShardId;
import io.tessera.data.store.ShardStore;
import io.tessera.data.store.ShardWrite;
import io.tessera.data.store.WriteBookkeeping;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * WRITE: units of shards, from a client's phase 2 (under its lock, releasing it), an unlocked
 * write, or recovery (under a lock it keeps).
 */
final class WriteOp implements DataOp {
  private static final Logger LOG = LoggerFactory.getLogger(WriteOp.class);

  private final ShardStore store;
  private final StripeLockTable locks;

  WriteOp(ShardStore store, StripeLockTable locks) {
    this.store = store;
    this.locks = locks;
  }

  @Override
  public Touches touches(DataRequestProto req) {
    WriteShardsRequestProto w = req.getWrite();
    return new Touches(w.hasUnlock() ? w.getUnlock().getFileId() : -1, w.getRangesList());
  }

  @Override
  public boolean needsSpace(DataRequestProto req) {
    return req.getWrite().getRangesCount() > 0;
  }

  @Override
  public Passage passage(DataRequestProto req) {
    WriteShardsRequestProto w = req.getWrite();
    return !w.hasUnlock()
        ? Passage.UNLOCKED_CHANGE
        : w.hasEpoch() ? Passage.STAMPED_CHANGE : Passage.LOCKED_CHANGE;
  }

  /**
   * Stores the units; a phase-2 write releases its lock and logs skipped servers in the same batch.
   */
  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    WriteShardsRequestProto w = req.getWrite();
    ByteString client = req.getCaller().getClientId();
    boolean recovery = req.getRecovery();
    List<ShardWrite> writes = toWrites(w, payload);
    long fileId = fileOf(w);
    byte[] lockKey = w.hasUnlock() ? StripeLockTable.key(w.getUnlock(), client) : null;
    // units written under a lock land only while the lock is held: once recovery took an expired
    // lock over and recomputed the stripes' parity, a late phase 2 would leave them inconsistent;
    // once a new coordinator took a rebuild's lock over and copied the file, a deposed one's late
    // copy would leave its units stale
    StripeLockProto lock = lockOf(w);
    boolean guarded = lock != null && !writes.isEmpty();
    OptionalLong granted = guarded ? locks.beginWrite(lock, client) : OptionalLong.empty();
    if (guarded && granted.isEmpty() && w.hasUnlock() && locks.landedAlready(lock, client)) {
      return Replies.released(false); // a resend (its reply was lost or late): it landed once
    }
    if (guarded && granted.isEmpty()) {
      LOG.warn(
          "A write to file {} arrived after its lock on stripes from {} was {}; refused",
          fileId,
          lock.getFirstStripe(),
          w.hasUnlock()
              ? "taken over (its lease ran out)"
              : "taken over or dropped (its recovery coordinator is no longer the meta leader's)");
      return Replies.error(
          StatusProto.LOCK_LOST,
          "the lock on stripes from "
              + lock.getFirstStripe()
              + " of file "
              + lock.getFileId()
              + " was lost ("
              + (w.hasUnlock()
                  ? "its lease ran out before this write arrived"
                  : "another recovery coordinator took it over")
              + "); nothing was stored");
    }
    if (guarded && w.hasEpoch() && w.getEpoch() > store.epoch() + 1) {
      // more than one snapshot this server has not heard of: it learns the epoch from its next
      // heartbeat
      locks.endWrite(lock, client);
      return Replies.error(
          StatusProto.UNAVAILABLE,
          "the write is stamped with epoch "
              + w.getEpoch()
              + " but this data server"
              + " is still at epoch "
              + store.epoch()
              + " (it missed snapshots while cut off from the meta group); it"
              + " catches up with its next heartbeat");
    }
    try {
      long epoch = writes.isEmpty() ? ShardStore.CURRENT_EPOCH : stampOf(w, granted, recovery);
      store.write(
          writes,
          new WriteBookkeeping(lockKey, fileId, w.getMissingServersList(), w.getStaleMarked()),
          epoch,
          w.getSync());
    } catch (IOException | RuntimeException e) {
      if (guarded) {
        locks.endWrite(lock, client);
      }
      throw e;
    }
    if (w.hasUnlock()) {
      boolean waited = locks.writersRefused(w.getUnlock(), client);
      locks.forget(w.getUnlock(), client);
      return Replies.released(waited);
    } else if (guarded) {
      locks.endWrite(lock, client);
    }
    return Replies.ok();
  }

  /**
   * The file a write names (by its lock or its ranges), checking what it says of skipped servers.
   */
  private static long fileOf(WriteShardsRequestProto w) {
    if (w.getMissingServersCount() > 255) {
      throw new IllegalArgumentException(
          "a write names " + w.getMissingServersCount() + " missing servers; at most 255");
    }
    long fileId =
        w.hasUnlock()
            ? w.getUnlock().getFileId()
            : w.getRangesCount() > 0 ? w.getRanges(0).getFileId() : 0;
    if (w.getMissingServersCount() > 0 && fileId == 0) {
      throw new IllegalArgumentException(
          "a write naming missing servers must name its file (ranges or unlock)");
    }
    return fileId;
  }

  /**
   * The lock a write lands under (the one it releases, or the one it keeps), or null; checks its
   * ranges are of that file.
   */
  private static StripeLockProto lockOf(WriteShardsRequestProto w) {
    if (w.hasUnlock() && w.hasGuard()) {
      throw new IllegalArgumentException(
          "a write names either the lock it releases (unlock) or the lock it keeps"
              + " (guard), not both");
    }
    StripeLockProto lock = w.hasUnlock() ? w.getUnlock() : w.hasGuard() ? w.getGuard() : null;
    if (lock != null) {
      for (ShardRangeProto r : w.getRangesList()) {
        if (r.getFileId() != lock.getFileId()) {
          throw new IllegalArgumentException(
              "a write under a lock of file "
                  + lock.getFileId()
                  + " names units of file "
                  + r.getFileId());
        }
      }
    }
    return lock;
  }

  /**
   * The epoch a write is stamped with: a phase 2's own (the newest grant epoch among its servers:
   * at least this server's grant; one past this server's epoch is a snapshot's COMMIT it has not
   * received yet), else the current one. Recovery's parity repair names the newest version among
   * its stripes' units, which may be older than the lock it took over them.
   */
  private long stampOf(WriteShardsRequestProto w, OptionalLong granted, boolean recovery) {
    if (!w.hasEpoch()) {
      return ShardStore.CURRENT_EPOCH;
    }
    if (granted.isEmpty()) {
      throw new IllegalArgumentException(
          "only a phase-2 write under a held lock may name its epoch");
    }
    if (w.getEpoch() < granted.getAsLong() && !recovery) {
      throw new IllegalArgumentException(
          "a write stamped with epoch "
              + Long.toUnsignedString(w.getEpoch())
              + " under a lock granted at epoch "
              + granted.getAsLong()
              + ": a write's epoch is at least its locks'");
    }
    return w.getEpoch();
  }

  private static List<ShardWrite> toWrites(WriteShardsRequestProto w, ByteBuf payload) {
    long total = ShardReads.checkRanges(w.getRangesList());
    if (total != payload.readableBytes()) {
      throw new IllegalArgumentException(
          "write ranges add up to "
              + total
              + " bytes but the payload has "
              + payload.readableBytes());
    }
    List<ShardWrite> out = new ArrayList<>(w.getRangesCount());
    int pos = payload.readerIndex();
    for (ShardRangeProto r : w.getRangesList()) {
      ShardId shard = new ShardId(r.getFileId(), r.getStripe(), r.getUnit());
      if (r.getHole()) {
        if (r.getOffset() != 0 || r.getLength() != 0) {
          throw new IllegalArgumentException(
              "a hole range of shard "
                  + shard
                  + " names bytes ("
                  + Integer.toUnsignedString(r.getOffset())
                  + "+"
                  + Integer.toUnsignedString(r.getLength())
                  + "); a hole has none");
        }
        out.add(ShardWrite.hole(shard));
        continue;
      }
      boolean covers = r.getCoversUnit() && r.getOffset() == 0;
      out.add(
          new ShardWrite(
              shard,
              r.getOffset(),
              payload.slice(pos, r.getLength()),
              covers,
              covers && w.getWholeStripes()));
      pos += r.getLength();
    }
    return out;
  }
}
