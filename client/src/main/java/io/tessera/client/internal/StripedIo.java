package io.tessera.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.layout.ShardPiece;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.SyncRequestProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Positional reads and writes of one striped file: a request is cut into unit pieces,
 * grouped by data server, and sent to every server at once.
 */
public final class StripedIo {
  /** Most bytes one request to one server carries (well inside the frame limit). */
  static final int MAX_REQUEST_BYTES = 16 << 20;

  private final DataClient data;

  public StripedIo(DataClient data) {
    this.data = data;
  }

  /** Writes {@code buf[off, off+len)} at file position {@code pos}; the array must stay unchanged until done. */
  public CompletableFuture<Void> write(long fileId, StripeLayout layout, long pos, byte[] buf, int off, int len,
      boolean sync) {
    List<CompletableFuture<?>> calls = new ArrayList<>();
    for (Map.Entry<String, List<List<ShardPiece>>> e : byServer(layout, pos, len).entrySet()) {
      for (List<ShardPiece> chunk : e.getValue()) {
        WriteShardsRequestProto.Builder w = WriteShardsRequestProto.newBuilder().setSync(sync);
        CompositeByteBuf payload = Unpooled.compositeBuffer(chunk.size());
        for (ShardPiece p : chunk) {
          w.addRanges(range(fileId, p).setCoversUnit(p.offsetInUnit() == 0 && p.length() == layout.stripeUnit()));
          payload.addComponent(true, Unpooled.wrappedBuffer(buf, off + (int) p.bufferOffset(), p.length()));
        }
        calls.add(data.call(e.getKey(), DataRequestProto.newBuilder().setWrite(w), payload)
            .thenAccept(r -> r.payload().release()));
      }
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  /** Reads file bytes {@code [pos, pos+len)} into {@code buf} at {@code off}; holes read as zeros. */
  public CompletableFuture<Void> read(long fileId, StripeLayout layout, long pos, byte[] buf, int off, int len) {
    List<CompletableFuture<?>> calls = new ArrayList<>();
    for (Map.Entry<String, List<List<ShardPiece>>> e : byServer(layout, pos, len).entrySet()) {
      for (List<ShardPiece> chunk : e.getValue()) {
        ReadShardsRequestProto.Builder r = ReadShardsRequestProto.newBuilder();
        chunk.forEach(p -> r.addRanges(range(fileId, p)));
        calls.add(data.call(e.getKey(), DataRequestProto.newBuilder().setRead(r), null).thenAccept(reply -> {
          ByteBuf in = reply.payload();
          try {
            for (ShardPiece p : chunk) {
              in.readBytes(buf, off + (int) p.bufferOffset(), p.length());
            }
          } finally {
            in.release();
          }
        }));
      }
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  /** Drops file bytes at and after {@code size} on every server of the file. */
  public CompletableFuture<Void> truncate(long fileId, StripeLayout layout, long size) {
    TruncateFileRequestProto.Builder t = TruncateFileRequestProto.newBuilder().setFileId(fileId)
        .setStripe(layout.stripeOf(size));
    for (int keep : layout.keptUnitLengths(size)) {
      t.addKeepLengths(keep);
    }
    return onEveryServer(layout, DataRequestProto.newBuilder().setTruncate(t));
  }

  /** Makes every acknowledged write of the file durable against power loss. */
  public CompletableFuture<Void> sync(StripeLayout layout) {
    return onEveryServer(layout, DataRequestProto.newBuilder().setSync(SyncRequestProto.getDefaultInstance()));
  }

  private CompletableFuture<Void> onEveryServer(StripeLayout layout, DataRequestProto.Builder req) {
    List<CompletableFuture<?>> calls = new ArrayList<>();
    for (String server : new LinkedHashSet<>(layout.servers())) {
      calls.add(data.call(server, req.clone(), null).thenAccept(r -> r.payload().release()));
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  private static ShardRangeProto.Builder range(long fileId, ShardPiece p) {
    return ShardRangeProto.newBuilder().setFileId(fileId).setStripe(p.stripe()).setUnit(p.unit())
        .setOffset(p.offsetInUnit()).setLength(p.length());
  }

  /** Pieces grouped by the server that holds them, cut into requests of bounded size. */
  private static Map<String, List<List<ShardPiece>>> byServer(StripeLayout layout, long pos, long len) {
    Map<String, List<List<ShardPiece>>> out = new LinkedHashMap<>();
    Map<String, Integer> bytes = new LinkedHashMap<>();
    for (ShardPiece p : layout.pieces(pos, len)) {
      String server = layout.serverOf(p.stripe(), p.unit());
      List<List<ShardPiece>> chunks = out.computeIfAbsent(server, s -> new ArrayList<>());
      int used = bytes.getOrDefault(server, MAX_REQUEST_BYTES);
      if (used + p.length() > MAX_REQUEST_BYTES) {
        chunks.add(new ArrayList<>());
        used = 0;
      }
      chunks.get(chunks.size() - 1).add(p);
      bytes.put(server, used + p.length());
    }
    return out;
  }
}
