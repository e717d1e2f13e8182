package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.recovery.CorruptionReport;
import io.tessera.data.store.CorruptShardException;
import io.tessera.data.store.ShardId;
import io.tessera.data.store.ShardStore;
import java.io.IOException;
import java.util.List;

/**
 * Reads ranges of shards into one reply (a plain read, and a lock request's read), and checks
 * ranges.
 */
final class ShardReads {
  /** Upper bound of bytes one read request may ask for (the frame limit bounds writes). */
  static final long MAX_READ_BYTES = 64L << 20;

  private final ShardStore store;
  private final CorruptionReport corruption;

  ShardReads(ShardStore store, CorruptionReport corruption) {
    this.store = store;
    this.corruption = corruption;
  }

  /** A read's reply: per range its state and stored length, the bytes behind them. */
  RpcReply read(
      List<ShardRangeProto> ranges,
      boolean probe,
      long atEpoch,
      List<String> dirtyServers,
      long lockEpoch,
      boolean withVersions)
      throws IOException {
    long total = checkRanges(ranges);
    if (!probe && total > MAX_READ_BYTES) {
      throw new IllegalArgumentException(
          "read of " + total + " bytes exceeds the per-request limit of " + MAX_READ_BYTES);
    }
    ReadShardsResponseProto.Builder meta = ReadShardsResponseProto.newBuilder();
    CompositeByteBuf out = Unpooled.compositeBuffer(Math.max(2, ranges.size() * 2));
    try {
      for (ShardRangeProto r : ranges) {
        ShardId id = new ShardId(r.getFileId(), r.getStripe(), r.getUnit());
        if (withVersions) {
          meta.addVersions(store.versionAt(id, atEpoch));
        }
        ByteBuf got;
        try {
          got = store.read(id, r.getOffset(), r.getLength(), atEpoch);
        } catch (CorruptShardException e) {
          corruption.found(id.fileId(), e.getMessage());
          meta.addStates(ShardStateProto.SHARD_CORRUPT).addStoredLengths(0);
          continue;
        }
        meta.addStates(got == null ? ShardStateProto.SHARD_ABSENT : ShardStateProto.SHARD_STORED)
            .addStoredLengths(got == null ? 0 : got.readableBytes());
        if (got != null && probe) {
          got.release();
        } else if (got != null) {
          out.addComponent(true, got);
        }
      }
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    return RpcReply.of(
        DataResponseProto.newBuilder()
            .setStatus(StatusProto.OK)
            .setRead(meta)
            .addAllDirtyServers(dirtyServers)
            .setLockEpoch(lockEpoch)
            .build(),
        out);
  }

  /** Checks every range; returns their total length. */
  static long checkRanges(List<ShardRangeProto> ranges) {
    long total = 0;
    for (ShardRangeProto r : ranges) {
      if (r.getOffset() < 0
          || r.getLength() < 0
          || (long) r.getOffset() + r.getLength() > (64L << 20)
          || r.getStripe() < 0
          || r.getUnit() < 0
          || r.getUnit() > 255) {
        throw new IllegalArgumentException(
            "shard range "
                + r.getFileId()
                + "/"
                + r.getStripe()
                + "/"
                + r.getUnit()
                + " at "
                + Integer.toUnsignedString(r.getOffset())
                + "+"
                + Integer.toUnsignedString(r.getLength())
                + " lies outside any stripe unit");
      }
      total += r.getLength();
    }
    return total;
  }

  /** The bytes a list of ranges names. */
  static long bytesOf(List<ShardRangeProto> ranges) {
    long bytes = 0;
    for (ShardRangeProto r : ranges) {
      bytes += r.getLength();
    }
    return bytes;
  }
}
