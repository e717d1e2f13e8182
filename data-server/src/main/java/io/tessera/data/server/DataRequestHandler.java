package io.tessera.data.server;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.data.store.CorruptShardException;
import io.tessera.data.store.ShardId;
import io.tessera.data.store.ShardStore;
import io.tessera.data.store.ShardWrite;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serves data.proto: validates each request, then runs it against the shard store off the event loop. */
final class DataRequestHandler implements RpcService {
  private static final Logger LOG = LoggerFactory.getLogger(DataRequestHandler.class);
  /** Upper bound of bytes one read request may ask for (the frame limit bounds writes). */
  static final long MAX_READ_BYTES = 64L << 20;

  private final ShardStore store;
  private final ExecutorService workers;

  DataRequestHandler(ShardStore store, ExecutorService workers) {
    this.store = store;
    this.workers = workers;
  }

  @Override
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    DataRequestProto req;
    try {
      req = DataRequestProto.parseFrom(call.header());
    } catch (InvalidProtocolBufferException e) {
      call.payload().release();
      return CompletableFuture.completedFuture(error(StatusProto.INVALID_ARGUMENT,
          "request header is not a data.proto DataRequestProto: " + e.getMessage()));
    }
    return CompletableFuture.supplyAsync(() -> {
      try {
        return execute(req, call.payload());
      } catch (IllegalArgumentException e) {
        return error(StatusProto.INVALID_ARGUMENT, e.getMessage());
      } catch (CorruptShardException e) {
        LOG.warn("Corrupt shard: {}", e.getMessage());
        return error(StatusProto.CORRUPT, e.getMessage());
      } catch (IOException e) {
        LOG.warn("Storage error: {}", e.getMessage());
        return error(StatusProto.INTERNAL, e.getMessage());
      } finally {
        call.payload().release();
      }
    }, workers);
  }

  private RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    switch (req.getOpCase()) {
      case WRITE -> {
        store.write(toWrites(req.getWrite(), payload), req.getWrite().getSync());
        return ok();
      }
      case READ -> {
        return read(req.getRead().getRangesList());
      }
      case DELETE_FILE -> {
        store.deleteFile(req.getDeleteFile().getFileId());
        return ok();
      }
      case TRUNCATE -> {
        TruncateFileRequestProto t = req.getTruncate();
        if (t.getKeepLengthsCount() > 255) {
          throw new IllegalArgumentException("truncate names " + t.getKeepLengthsCount() + " units; at most 255");
        }
        store.truncateFile(t.getFileId(), t.getStripe(), t.getKeepLengthsList().stream().mapToInt(i -> i).toArray());
        return ok();
      }
      case SYNC -> {
        store.sync();
        return ok();
      }
      default -> throw new IllegalArgumentException("request names no operation");
    }
  }

  private static List<ShardWrite> toWrites(WriteShardsRequestProto w, ByteBuf payload) {
    long total = 0;
    for (ShardRangeProto r : w.getRangesList()) {
      checkRange(r);
      total += r.getLength();
    }
    if (total != payload.readableBytes()) {
      throw new IllegalArgumentException("write ranges add up to " + total + " bytes but the payload has "
          + payload.readableBytes());
    }
    List<ShardWrite> out = new ArrayList<>(w.getRangesCount());
    int pos = payload.readerIndex();
    for (ShardRangeProto r : w.getRangesList()) {
      out.add(new ShardWrite(new ShardId(r.getFileId(), r.getStripe(), r.getUnit()), r.getOffset(),
          payload.slice(pos, r.getLength()), r.getCoversUnit() && r.getOffset() == 0));
      pos += r.getLength();
    }
    return out;
  }

  private RpcReply read(List<ShardRangeProto> ranges) throws IOException {
    long total = 0;
    for (ShardRangeProto r : ranges) {
      checkRange(r);
      total += r.getLength();
    }
    if (total > MAX_READ_BYTES) {
      throw new IllegalArgumentException("read of " + total + " bytes exceeds the per-request limit of "
          + MAX_READ_BYTES);
    }
    ReadShardsResponseProto.Builder meta = ReadShardsResponseProto.newBuilder();
    CompositeByteBuf out = Unpooled.compositeBuffer(Math.max(2, ranges.size() * 2));
    try {
      for (ShardRangeProto r : ranges) {
        ByteBuf got = store.read(new ShardId(r.getFileId(), r.getStripe(), r.getUnit()), r.getOffset(), r.getLength());
        meta.addStored(got != null);
        int have = got == null ? 0 : got.readableBytes();
        if (got != null) {
          out.addComponent(true, got);
        }
        if (have < r.getLength()) {
          // never-written bytes read as zeros
          out.addComponent(true, Unpooled.wrappedBuffer(new byte[r.getLength() - have]));
        }
      }
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).setRead(meta).build(), out);
  }

  private static void checkRange(ShardRangeProto r) {
    if (r.getOffset() < 0 || r.getLength() < 0 || (long) r.getOffset() + r.getLength() > (64L << 20)
        || r.getStripe() < 0 || r.getUnit() < 0 || r.getUnit() > 255) {
      throw new IllegalArgumentException("shard range " + r.getFileId() + "/" + r.getStripe() + "/" + r.getUnit()
          + " at " + Integer.toUnsignedString(r.getOffset()) + "+" + Integer.toUnsignedString(r.getLength())
          + " lies outside any stripe unit");
    }
  }

  private static RpcReply ok() {
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).build());
  }

  private static RpcReply error(StatusProto status, String message) {
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(status).setMessage(message).build());
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return error(StatusProto.INTERNAL, String.valueOf(cause.getMessage()));
  }
}
