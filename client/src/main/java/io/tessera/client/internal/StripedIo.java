package io.tessera.client.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.client.IoCounters;
import io.tessera.common.dataio.DataServerReply;
import io.tessera.common.dataio.ReadBatch;
import io.tessera.common.dataio.WriteBatch;
import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.ShardPiece;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.SyncRequestProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.status.TesseraException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * Positional reads and writes of striped files: a request is cut into unit pieces, grouped by data
 * server, and sent to every server at once.
 *
 * <p>Over 500 lines because reads, writes without parity, truncates and syncs share the cutting and
 * grouping of requests by server; the degraded-read round is the longest part and the next to move
 * out (into a read plan of its own).
 */
public final class StripedIo {
  /** Most bytes one request to one server carries (well inside the frame limit). */
  static final int MAX_REQUEST_BYTES = 16 << 20;

  private final DataClient data;
  private final ParityWriter writer;
  private final Executor coding;
  private final IoCounters counters;
  private final LayoutRefresh layouts;
  private final LockedTruncate truncates;
  private final KeptRead kept;

  public StripedIo(
      DataClient data,
      ParityWriter writer,
      Executor coding,
      IoCounters counters,
      LayoutRefresh layouts) {
    this.data = data;
    this.writer = writer;
    this.truncates = new LockedTruncate(data, writer);
    this.coding = coding;
    this.counters = counters;
    this.layouts = layouts;
    this.kept = new KeptRead(data, coding, counters);
  }

  /**
   * Writes {@code buf[off, off+len)} at file position {@code pos}; the array must stay unchanged
   * until done. Files with parity go through the two-phase {@link ParityWriter}; files without are
   * written to their data servers directly. {@code extendTo} records the new size (with parity:
   * while the stripes are locked, see {@link ParityWriter#write}).
   */
  public CompletableFuture<Void> write(
      FileTarget file,
      long pos,
      byte[] buf,
      int off,
      int len,
      boolean sync,
      SizeExtension extendTo) {
    return layouts.planned(file, () -> writeOnce(file, pos, buf, off, len, sync, extendTo));
  }

  private CompletableFuture<Void> writeOnce(
      FileTarget file,
      long pos,
      byte[] buf,
      int off,
      int len,
      boolean sync,
      SizeExtension extendTo) {
    if (file.hasParity()) {
      return writer.write(file, pos, buf, off, len, sync, extendTo);
    }
    long fileId = file.fileId();
    StripeLayout layout = file.layout();
    List<CompletableFuture<?>> calls = new ArrayList<>();
    calls.add(extendTo.extendTo(pos + len, SizeExtension.UNSTAMPED, System.nanoTime()));
    // whole stripes streamed out: no partial write reads their units back soon
    boolean wholeStripes =
        pos % layout.stripeDataBytes() == 0 && len % layout.stripeDataBytes() == 0;
    for (Map.Entry<String, List<List<ShardPiece>>> e : byServer(layout, pos, len).entrySet()) {
      for (List<ShardPiece> chunk : e.getValue()) {
        WriteBatch w =
            new WriteBatch(
                WriteShardsRequestProto.newBuilder().setSync(sync).setWholeStripes(wholeStripes),
                chunk.size());
        for (ShardPiece p : chunk) {
          w.add(
              fileId,
              p.stripe(),
              p.unit(),
              p.offsetInUnit(),
              buf,
              off + (int) p.bufferOffset(),
              p.length(),
              p.offsetInUnit() == 0 && p.length() == layout.stripeUnit());
        }
        calls.add(
            data.call(e.getKey(), file.request(layout).setWrite(w.request()), w.payload())
                .thenAccept(r -> r.payload().release()));
      }
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
  }

  /**
   * Reads file bytes {@code [pos, pos+len)} into {@code buf} at {@code off}; holes read as zeros.
   * Healthy stripes fetch only the data units asked for; a stripe with a unit that cannot be used
   * (server down or stale, shard corrupt) is decoded from any {@code k} of its units. A server that
   * fails mid-read is marked down and its stripes decoded.
   */
  public CompletableFuture<Void> read(FileTarget file, long pos, byte[] buf, int off, int len) {
    return layouts.planned(
        file,
        () -> readRound(file, file.layout().pieces(pos, len), buf, off, new UnusableUnits(), 0));
  }

  /**
   * Reads file bytes {@code [pos, pos+len)} into a buffer the caller must release, keeping the
   * bytes where the replies brought them instead of copying them, stripes with a unit down or stale
   * decoded from kept units ({@link KeptRead}). A server that fails mid-read or a corrupt shard
   * sends the read to {@link #read}, into an array the buffer then wraps.
   */
  public CompletableFuture<ByteBuf> readKept(FileTarget file, long pos, int len) {
    return layouts
        .planned(file, () -> kept.read(file, pos, len))
        .thenCompose(
            bytes -> {
              if (bytes != null) {
                return CompletableFuture.completedFuture(bytes);
              }
              byte[] copy = new byte[len];
              return read(file, pos, copy, 0, len).thenApply(v -> Unpooled.wrappedBuffer(copy));
            });
  }

  /**
   * One round of a read: the pieces whose units are usable are read as they are, the stripes of the
   * others are decoded from k units; pieces whose server fails or whose shard is corrupt go to the
   * next round (a read gives up after as many rounds as a stripe has units).
   */
  private CompletableFuture<Void> readRound(
      FileTarget file, List<ShardPiece> pieces, byte[] buf, int off, UnusableUnits bad, int round) {
    StripeLayout layout = file.layout();
    Map<String, List<ReadBatch>> batches = new LinkedHashMap<>();
    Map<Long, List<ShardPiece>> degraded = new LinkedHashMap<>();
    for (ShardPiece p : pieces) {
      if (usable(file, bad, p.stripe(), p.unit())) {
        addTo(
            batches,
            layout.serverOf(p.stripe(), p.unit()),
            file.fileId(),
            p.stripe(),
            p.unit(),
            p.offsetInUnit(),
            p.length(),
            buf,
            off + (int) p.bufferOffset(),
            p);
      } else {
        degraded.computeIfAbsent(p.stripe(), s -> new ArrayList<>()).add(p);
      }
    }
    List<DecodedStripe> decoded;
    try {
      decoded = planDecodes(file, pieces, degraded, batches, buf, off, bad);
    } catch (TesseraException e) {
      return CompletableFuture.failedFuture(e);
    }
    // pieces and stripes to try again: their server failed or their shard is corrupt
    Set<Object> retry = ConcurrentHashMap.newKeySet();
    List<CompletableFuture<?>> calls = new ArrayList<>();
    for (Map.Entry<String, List<ReadBatch>> e : batches.entrySet()) {
      for (ReadBatch batch : e.getValue()) {
        ReadShardsRequestProto.Builder r = file.newRead().addAllRanges(batch.ranges());
        calls.add(
            data.call(e.getKey(), file.request(layout).setRead(r), null)
                .handle(
                    (reply, err) -> {
                      accepted(file, batch, reply, err, bad, retry);
                      return null;
                    }));
      }
    }
    return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new))
        .thenCompose(v -> nextRound(file, decoded, retry, buf, off, bad, round));
  }

  /**
   * Plans the decoding of the stripes with unusable units: k usable units of each are read (or
   * taken from where the round reads them anyway for their own bytes).
   */
  private List<DecodedStripe> planDecodes(
      FileTarget file,
      List<ShardPiece> pieces,
      Map<Long, List<ShardPiece>> degraded,
      Map<String, List<ReadBatch>> batches,
      byte[] buf,
      int off,
      UnusableUnits bad)
      throws TesseraException {
    StripeLayout layout = file.layout();
    int n = layout.width();
    // only when something is decoded: the units read as they are, by stripe, for reuse (decided
    // above, not asked again: a server marked down meanwhile must not make a decoded unit "read")
    Map<Long, Map<Integer, ShardPiece>> direct = new HashMap<>();
    if (!degraded.isEmpty()) {
      for (ShardPiece p : pieces) {
        List<ShardPiece> decodedHere = degraded.get(p.stripe());
        if (decodedHere != null && !decodedHere.contains(p)) {
          direct.computeIfAbsent(p.stripe(), s -> new HashMap<>()).put(p.unit(), p);
        }
      }
    }
    List<DecodedStripe> decoded = new ArrayList<>();
    for (Map.Entry<Long, List<ShardPiece>> e : degraded.entrySet()) {
      DecodedStripe d =
          new DecodedStripe(
              e.getKey(), e.getValue(), layout.stripeUnit(), layout.dataUnits(), n, buf, off);
      Map<Integer, ShardPiece> readAnyway = direct.getOrDefault(d.stripe, Map.of());
      int taken = 0;
      for (int u = 0; u < n && taken < layout.dataUnits(); u++) {
        if (usable(file, bad, d.stripe, u)) {
          d.present[u] = true;
          taken++;
          ShardPiece same = readAnyway.get(u);
          if (same != null && same.offsetInUnit() == d.c0 && same.length() == d.c1 - d.c0) {
            // already read into the caller's buffer for its own bytes: decode from there
            d.shards[u] = buf;
            d.offsets[u] = off + (int) same.bufferOffset();
            d.sharedReads.add(same);
            continue;
          }
          if (d.shards[u] == null) {
            d.shards[u] = new byte[d.c1 - d.c0];
          }
          addTo(
              batches,
              layout.serverOf(d.stripe, u),
              file.fileId(),
              d.stripe,
              u,
              d.c0,
              d.c1 - d.c0,
              d.shards[u],
              d.offsets[u],
              d);
        }
      }
      if (taken < layout.dataUnits()) {
        throw new TesseraException(
            StatusProto.UNREADABLE,
            "stripe "
                + d.stripe
                + " of "
                + file.describe()
                + " has only "
                + taken
                + " of its "
                + n
                + " units readable; decoding needs "
                + layout.dataUnits()
                + " (the others are on data servers that are down or stale: see tessera cluster"
                + " status; it reads again once they are back)");
      }
      decoded.add(d);
    }
    return decoded;
  }

  /**
   * Takes one server's answer to a batch: its bytes land where they belong; a down server (with
   * parity to decode from) or a corrupt shard puts the pieces and stripes concerned in {@code
   * retry}.
   */
  private void accepted(
      FileTarget file,
      ReadBatch batch,
      DataServerReply reply,
      Throwable err,
      UnusableUnits bad,
      Set<Object> retry) {
    if (err != null) {
      Throwable cause = Failures.cause(err);
      if (!(cause instanceof ServerDownException) || !file.hasParity()) {
        throw wrap(unreadable(file, cause));
      }
      batch.targets().forEach(t -> retry.add(t.tag()));
      return;
    }
    List<Object> corrupt;
    try {
      counters.shardBytesRead.addAndGet(reply.payload().readableBytes());
      corrupt = batch.accept(reply.header(), reply.payload());
    } catch (TesseraException te) {
      throw new CompletionException(te);
    }
    if (!corrupt.isEmpty() && !file.hasParity()) {
      throw new CompletionException(
          new TesseraException(
              StatusProto.CORRUPT,
              "file "
                  + file.fileId()
                  + " has a shard on data server "
                  + batch.server()
                  + " that fails its checksum, and no parity"));
    }
    for (int i = 0; i < batch.targets().size(); i++) {
      ReadBatch.Target t = batch.targets().get(i);
      if (corrupt.contains(t.tag())) {
        ShardRangeProto range = batch.ranges().get(i);
        bad.add(range.getStripe(), range.getUnit());
        retry.add(t.tag());
      }
    }
  }

  /** Decodes the stripes whose units all arrived; reads what must be tried again in a new round. */
  private CompletableFuture<Void> nextRound(
      FileTarget file,
      List<DecodedStripe> decoded,
      Set<Object> retry,
      byte[] buf,
      int off,
      UnusableUnits bad,
      int round) {
    StripeLayout layout = file.layout();
    List<ShardPiece> again = new ArrayList<>();
    List<DecodedStripe> ready = new ArrayList<>();
    for (Object tag : retry) {
      if (tag instanceof ShardPiece p) {
        again.add(p);
      } else {
        again.addAll(((DecodedStripe) tag).pieces);
      }
    }
    for (DecodedStripe d : decoded) {
      if (retry.contains(d)) {
        continue;
      }
      if (d.sharedReads.stream().anyMatch(retry::contains)) {
        again.addAll(d.pieces); // a unit it decodes from failed: plan the stripe again
      } else {
        ready.add(d);
      }
    }
    CompletableFuture<Void> decodedDone =
        ready.isEmpty()
            ? CompletableFuture.completedFuture(null)
            : CompletableFuture.runAsync(
                () -> ready.forEach(d -> d.decodeInto(writer.codec(layout), buf, off)), coding);
    counters.degradedStripeReads.addAndGet(ready.size());
    if (again.isEmpty()) {
      return decodedDone;
    }
    if (round > layout.width()) {
      return CompletableFuture.failedFuture(
          new TesseraException(
              StatusProto.UNAVAILABLE, "reading file " + file.fileId() + " kept losing servers"));
    }
    return CompletableFuture.allOf(decodedDone, readRound(file, again, buf, off, bad, round + 1));
  }

  /**
   * A read's failure as the caller should see it: a down server holding units of a file without
   * parity makes those bytes unreadable until it is back, which is not the cluster being
   * unreachable.
   */
  static Throwable unreadable(FileTarget file, Throwable cause) {
    if (cause instanceof ServerDownException down && !file.hasParity()) {
      return new TesseraException(
          StatusProto.UNREADABLE,
          file.describe()
              + " has no parity (layout "
              + file.layout()
              + ") and part of it is on data server "
              + down.server()
              + ", which does not answer: those"
              + " bytes read again once it is back ("
              + down.getMessage()
              + ")");
    }
    return cause;
  }

  private boolean usable(FileTarget file, UnusableUnits bad, long stripe, int unit) {
    return !file.hasParity() || bad.usable(file, data.health(), stripe, unit);
  }

  /**
   * Adds a range to the server's current batch, starting a new batch when it would pass the request
   * bound.
   */
  static void addTo(
      Map<String, List<ReadBatch>> batches,
      String server,
      long fileId,
      long stripe,
      int unit,
      int offset,
      int length,
      byte[] into,
      int at,
      Object tag) {
    List<ReadBatch> list = batches.computeIfAbsent(server, s -> new ArrayList<>());
    if (list.isEmpty() || list.get(list.size() - 1).bytes() + length > MAX_REQUEST_BYTES) {
      list.add(new ReadBatch(server));
    }
    list.get(list.size() - 1).add(fileId, stripe, unit, offset, length, into, at, tag);
  }

  /**
   * A stripe read by decoding: columns [c0, c1) of k usable units, the missing data units rebuilt.
   * A data unit whose requested bytes span all those columns is read and rebuilt in place in the
   * reader's buffer; only the others (and parity) use arrays of their own.
   */
  private static final class DecodedStripe {
    final long stripe;
    final List<ShardPiece> pieces;
    final int c0;
    final int c1;
    final byte[][] shards;
    final int[] offsets;
    final boolean[] inPlace;
    final boolean[] present;

    /** Units read for their own bytes that this stripe decodes from where they landed. */
    final List<ShardPiece> sharedReads = new ArrayList<>();

    DecodedStripe(
        long stripe, List<ShardPiece> pieces, int unit, int k, int n, byte[] buf, int off) {
      this.stripe = stripe;
      this.pieces = pieces;
      int lo = unit;
      int hi = 0;
      for (ShardPiece p : pieces) {
        lo = Math.min(lo, p.offsetInUnit());
        hi = Math.max(hi, p.offsetInUnit() + p.length());
      }
      this.c0 = lo;
      this.c1 = hi;
      this.shards = new byte[n][];
      this.offsets = new int[n];
      this.inPlace = new boolean[n];
      this.present = new boolean[n];
      for (ShardPiece p : pieces) {
        if (p.offsetInUnit() == c0 && p.length() == c1 - c0) {
          shards[p.unit()] = buf;
          offsets[p.unit()] = off + (int) p.bufferOffset();
          inPlace[p.unit()] = true;
        } else {
          shards[p.unit()] = new byte[c1 - c0];
        }
      }
    }

    void decodeInto(ErasureCodec codec, byte[] buf, int off) {
      codec.reconstructDataAt(shards, offsets, present, c1 - c0);
      for (ShardPiece p : pieces) {
        if (!inPlace[p.unit()]) {
          System.arraycopy(
              shards[p.unit()],
              p.offsetInUnit() - c0,
              buf,
              off + (int) p.bufferOffset(),
              p.length());
        }
      }
    }
  }

  static CompletionException wrap(Throwable t) {
    return t instanceof CompletionException ce ? ce : new CompletionException(t);
  }

  /**
   * Drops file bytes at and after {@code size} on every server of the file. With parity, the caller
   * first zeroes the cut part of the last stripe through a parity write, so the parity kept here
   * still matches, and the cut itself holds the cut stripes' locks ({@link LockedTruncate}).
   */
  public CompletableFuture<Void> truncate(FileTarget file, long size) {
    return layouts.planned(file, () -> truncateOnce(file, size));
  }

  private CompletableFuture<Void> truncateOnce(FileTarget file, long size) {
    StripeLayout layout = file.layout();
    TruncateFileRequestProto.Builder t =
        TruncateFileRequestProto.newBuilder()
            .setFileId(file.fileId())
            .setStripe(layout.stripeOf(size));
    for (int keep : layout.keptUnitLengths(size)) {
      t.addKeepLengths(keep);
    }
    if (file.hasParity()) {
      return truncates.run(file, t);
    }
    return onEveryServer(file, layout, file.request(layout).setTruncate(t));
  }

  /** Makes every acknowledged write of the file durable against power loss. */
  public CompletableFuture<Void> sync(FileTarget file) {
    return layouts.planned(
        file,
        () ->
            onEveryServer(
                file,
                file.layout(),
                DataRequestProto.newBuilder().setSync(SyncRequestProto.getDefaultInstance())));
  }

  private CompletableFuture<Void> onEveryServer(
      FileTarget file, StripeLayout layout, DataRequestProto.Builder req) {
    Map<String, CompletableFuture<Throwable>> calls = new LinkedHashMap<>();
    Set<String> skippedDown = new LinkedHashSet<>();
    for (String server : new LinkedHashSet<>(layout.servers())) {
      if (file.hasParity() && (file.isStale(server) || data.health().isDown(server))) {
        if (!file.isStale(server)) {
          skippedDown.add(server);
        }
        continue;
      }
      calls.put(server, data.callForOutcome(server, req.clone(), null));
    }
    return CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new))
        .thenCompose(
            v -> {
              Set<String> lost = new LinkedHashSet<>(skippedDown);
              for (Map.Entry<String, CompletableFuture<Throwable>> e : calls.entrySet()) {
                Throwable t = e.getValue().join();
                if (t instanceof ServerDownException && file.hasParity()) {
                  lost.add(e.getKey());
                } else if (t != null) {
                  return CompletableFuture.failedFuture(t);
                }
              }
              int answered = calls.size() - (lost.size() - skippedDown.size());
              if (answered < layout.dataUnits()) {
                return CompletableFuture.failedFuture(
                    new TesseraException(
                        StatusProto.UNAVAILABLE,
                        "only "
                            + answered
                            + " of the "
                            + layout.width()
                            + " servers of file "
                            + file.fileId()
                            + " answered; "
                            + layout.dataUnits()
                            + " are needed"));
              }
              return writer.markStale(file, lost);
            });
  }

  /** Pieces grouped by the server that holds them, cut into requests of bounded size. */
  private static Map<String, List<List<ShardPiece>>> byServer(
      StripeLayout layout, long pos, long len) {
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
