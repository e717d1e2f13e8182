package io.tessera.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.client.IoCounters;
import io.tessera.common.dataio.ReadBatch;
import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.ShardPiece;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.NettyTransport;
import io.tessera.common.status.TesseraException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * One read whose bytes stay where the data servers' replies brought them: every piece of the range
 * is a slice of a reply. A stripe with a unit that cannot be used (its server down or stale) is
 * decoded from kept units, the reply buffers themselves, into a buffer of its own: a degraded read
 * copies nothing but the bytes it rebuilds. Whatever goes wrong mid-read (a server failing, a
 * corrupt shard, too few units) gives up with nothing kept, and the caller reads again through
 * {@link StripedIo#read}, which handles every case.
 */
final class KeptRead {
  private final DataClient data;
  private final Executor coding;
  private final IoCounters counters;

  KeptRead(DataClient data, Executor coding, IoCounters counters) {
    this.data = data;
    this.coding = coding;
    this.counters = counters;
  }

  /**
   * The bytes {@code [pos, pos+len)} in a buffer the caller releases, or null when the read needs
   * what only {@link StripedIo#read} does.
   */
  CompletableFuture<ByteBuf> read(FileTarget file, long pos, int len) {
    StripeLayout layout = file.layout();
    List<ShardPiece> pieces = layout.pieces(pos, len);
    Map<String, List<ReadBatch>> batches = new LinkedHashMap<>();
    Map<Long, List<Integer>> lost = new LinkedHashMap<>();
    Map<Long, Map<Integer, Integer>> readHere = new HashMap<>();
    for (int i = 0; i < pieces.size(); i++) {
      ShardPiece p = pieces.get(i);
      if (usable(file, p.stripe(), p.unit())) {
        add(batches, file, p.stripe(), p.unit(), p.offsetInUnit(), p.length(), i);
        readHere.computeIfAbsent(p.stripe(), s -> new HashMap<>()).put(p.unit(), i);
      } else {
        lost.computeIfAbsent(p.stripe(), s -> new ArrayList<>()).add(i);
      }
    }
    List<Decode> decodes = new ArrayList<>();
    int slots = pieces.size();
    for (Map.Entry<Long, List<Integer>> e : lost.entrySet()) {
      Decode d = new Decode(e.getKey(), e.getValue(), pieces, layout.width());
      Map<Integer, Integer> here = readHere.getOrDefault(d.stripe, Map.of());
      int taken = 0;
      for (int u = 0; u < layout.width() && taken < layout.dataUnits(); u++) {
        if (!usable(file, d.stripe, u)) {
          continue;
        }
        Integer same = here.get(u);
        ShardPiece own = same == null ? null : pieces.get(same);
        if (own != null
            && own.offsetInUnit() <= d.c0
            && own.offsetInUnit() + own.length() >= d.c1) {
          d.inputs[u] = same; // read for its own bytes anyway: decode from those bytes
          d.inputStarts[u] = d.c0 - own.offsetInUnit();
        } else {
          d.inputs[u] = slots++;
          add(batches, file, d.stripe, u, d.c0, d.width(), d.inputs[u]);
        }
        taken++;
      }
      if (taken < layout.dataUnits()) {
        return CompletableFuture.completedFuture(null);
      }
      decodes.add(d);
    }
    ByteBuf[] kept = new ByteBuf[slots];
    List<CompletableFuture<Boolean>> calls = new ArrayList<>();
    for (Map.Entry<String, List<ReadBatch>> e : batches.entrySet()) {
      for (ReadBatch batch : e.getValue()) {
        ReadShardsRequestProto.Builder r = file.newRead().addAllRanges(batch.ranges());
        calls.add(
            data.call(e.getKey(), file.request(layout).setRead(r), null)
                .thenApply(reply -> keep(batch, reply.header(), reply.payload(), kept)));
      }
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
        .handle(
            (v, err) -> {
              if (err == null && calls.stream().allMatch(CompletableFuture::join)) {
                return true;
              }
              release(kept);
              Throwable cause = err == null ? null : Failures.cause(err);
              if (cause == null || (cause instanceof ServerDownException && file.hasParity())) {
                return false;
              }
              throw StripedIo.wrap(StripedIo.unreadable(file, cause));
            })
        .thenCompose(
            whole -> {
              if (!whole) {
                return CompletableFuture.completedFuture(null);
              }
              if (decodes.isEmpty()) {
                return CompletableFuture.completedFuture(wrap(kept, pieces.size()));
              }
              return CompletableFuture.supplyAsync(
                      () -> decoded(layout, pieces, decodes, kept), coding)
                  .whenComplete(
                      (b, err) -> {
                        if (err != null) {
                          release(kept);
                        }
                      });
            });
  }

  private boolean keep(ReadBatch batch, DataResponseProto header, ByteBuf payload, ByteBuf[] kept) {
    counters.shardBytesRead.addAndGet(payload.readableBytes());
    List<ByteBuf> bufs;
    try {
      bufs = batch.keep(header, payload);
    } catch (TesseraException te) {
      throw new CompletionException(te);
    }
    if (bufs == null) {
      return false;
    }
    for (int i = 0; i < bufs.size(); i++) {
      kept[batch.targets().get(i).at()] = bufs.get(i);
    }
    return true;
  }

  /**
   * Rebuilds the lost pieces into buffers of their own; the units read only to decode are let go.
   */
  private ByteBuf decoded(
      StripeLayout layout, List<ShardPiece> pieces, List<Decode> decodes, ByteBuf[] kept) {
    ErasureCodec codec = ErasureCodec.shared(layout.dataUnits(), layout.parityUnits());
    for (Decode d : decodes) {
      ByteBuffer[][] inputs = new ByteBuffer[layout.width()][];
      boolean[] present = new boolean[layout.width()];
      for (int u = 0; u < inputs.length; u++) {
        if (d.inputs[u] >= 0) {
          ByteBuf b = kept[d.inputs[u]];
          inputs[u] = b.nioBuffers(b.readerIndex() + d.inputStarts[u], d.width());
          present[u] = true;
        }
      }
      ByteBuffer[] outputs = new ByteBuffer[layout.width()];
      for (int i : d.lostPieces) {
        ShardPiece p = pieces.get(i);
        ByteBuf out = NettyTransport.allocator().heapBuffer(d.width());
        out.writerIndex(d.width());
        kept[i] = out.slice(p.offsetInUnit() - d.c0, p.length()); // owns out: released with it
        outputs[p.unit()] = out.nioBuffer(0, d.width());
      }
      reconstruct(codec, inputs, present, outputs, d.width());
    }
    counters.degradedStripeReads.addAndGet(decodes.size());
    release(Arrays.copyOfRange(kept, pieces.size(), kept.length));
    return wrap(kept, pieces.size());
  }

  /**
   * Rebuilds the lost columns piece by piece, each piece lying in one component of every input: a
   * kept range is made of the socket reads it arrived in, and is decoded where they lie.
   */
  private static void reconstruct(
      ErasureCodec codec,
      ByteBuffer[][] inputs,
      boolean[] present,
      ByteBuffer[] outputs,
      int width) {
    int n = inputs.length;
    int[] part = new int[n];
    int[] used = new int[n];
    ByteBuffer[] shards = new ByteBuffer[n];
    for (int c = 0; c < width; ) {
      int len = width - c;
      for (int u = 0; u < n; u++) {
        if (present[u]) {
          while (inputs[u][part[u]].remaining() == used[u]) {
            part[u]++;
            used[u] = 0;
          }
          len = Math.min(len, inputs[u][part[u]].remaining() - used[u]);
        }
      }
      for (int u = 0; u < n; u++) {
        if (present[u]) {
          ByteBuffer component = inputs[u][part[u]];
          shards[u] = component.slice(component.position() + used[u], len);
          used[u] += len;
        } else {
          shards[u] = outputs[u] == null ? null : outputs[u].slice(c, len);
        }
      }
      codec.reconstructDataFrom(shards, present, len);
      c += len;
    }
  }

  private static ByteBuf wrap(ByteBuf[] kept, int parts) {
    return Unpooled.wrappedUnmodifiableBuffer(Arrays.copyOf(kept, parts));
  }

  private static void release(ByteBuf[] kept) {
    for (int i = 0; i < kept.length; i++) {
      if (kept[i] != null) {
        kept[i].release();
        kept[i] = null;
      }
    }
  }

  private boolean usable(FileTarget file, long stripe, int unit) {
    return !file.hasParity() || file.usable(data.health(), stripe, unit);
  }

  private static void add(
      Map<String, List<ReadBatch>> batches,
      FileTarget file,
      long stripe,
      int unit,
      int offset,
      int length,
      int slot) {
    StripedIo.addTo(
        batches,
        file.layout().serverOf(stripe, unit),
        file.fileId(),
        stripe,
        unit,
        offset,
        length,
        null,
        slot,
        null);
  }

  /**
   * A stripe that lost units of this read: columns [c0, c1) of k usable units rebuild the lost
   * pieces; unit u's columns are at {@code inputStarts[u]} in slot {@code inputs[u]} (-1: not
   * read).
   */
  private static final class Decode {
    final long stripe;
    final List<Integer> lostPieces;
    final int c0;
    final int c1;
    final int[] inputs;
    final int[] inputStarts;

    Decode(long stripe, List<Integer> lostPieces, List<ShardPiece> pieces, int width) {
      this.stripe = stripe;
      this.lostPieces = lostPieces;
      int lo = Integer.MAX_VALUE;
      int hi = 0;
      for (int i : lostPieces) {
        lo = Math.min(lo, pieces.get(i).offsetInUnit());
        hi = Math.max(hi, pieces.get(i).offsetInUnit() + pieces.get(i).length());
      }
      this.c0 = lo;
      this.c1 = hi;
      this.inputs = new int[width];
      Arrays.fill(inputs, -1);
      this.inputStarts = new int[width];
    }

    int width() {
      return c1 - c0;
    }
  }
}
