package io.tessera.client.log;

import io.tessera.client.internal.FileTarget;
import io.tessera.common.layout.LogRecord;
import io.tessera.common.proto.LogCutProto;
import io.tessera.common.proto.LogStateProto;
import io.tessera.common.proto.LogWriterProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A log file as its committed indexes say, merged: the flattened index, then each writer's records
 * after what it covers, oldest first (a later record wins where records overlap), each cut by the
 * truncates that came after it. Reads go to the writers' data logs in parallel.
 */
final class LogView {
  private final LogFiles files;
  private final String snapshotRoot;
  private final LogStateProto state;
  private final ExtentMap extents;
  private final Map<Integer, Long> dataLogs = new HashMap<>();
  private final Map<Integer, Long> dataLengths = new HashMap<>();
  private final Map<Long, CompletableFuture<FileTarget>> targets = new ConcurrentHashMap<>();

  private LogView(
      LogFiles files,
      String snapshotRoot,
      LogStateProto state,
      ExtentMap extents,
      long stripeDataBytes) {
    this.files = files;
    this.windowBytes = stripeDataBytes <= (16 << 20) ? stripeDataBytes : 1 << 20;
    int kept = (int) Math.max(4, WINDOWS_BYTES / windowBytes);
    this.windows =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Window, CompletableFuture<byte[]>> e) {
            return size() > kept;
          }
        };
    this.snapshotRoot = snapshotRoot;
    this.state = state;
    this.extents = extents;
    for (LogWriterProto w : state.getWritersList()) {
      dataLogs.put(w.getWriter(), w.getDataFileId());
      dataLengths.put(w.getWriter(), w.getDataLength());
    }
  }

  LogStateProto state() {
    return state;
  }

  ExtentMap extents() {
    return extents;
  }

  /** One index log to read: {@code [from, to)} of it, written by {@code writer} (0: flattened). */
  private record Source(long indexId, int writer, long from, long to) {}

  /** Reads the committed indexes of {@code state} and merges them. */
  static CompletableFuture<LogView> load(
      LogFiles files, String snapshotRoot, LogStateProto state, long stripeDataBytes) {
    List<Source> sources = new ArrayList<>();
    if (state.getFlatIndexFileId() != 0) {
      sources.add(new Source(state.getFlatIndexFileId(), 0, 0, state.getFlatIndexLength()));
    }
    for (LogWriterProto w : state.getWritersList()) {
      long from = state.getFlatCoversOrDefault(w.getWriter(), 0);
      if (w.getDataFileId() != 0 && w.getIndexLength() > from) {
        sources.add(new Source(w.getIndexFileId(), w.getWriter(), from, w.getIndexLength()));
      }
    }
    List<CompletableFuture<List<Positioned>>> reads = new ArrayList<>();
    for (Source s : sources) {
      reads.add(readRecords(files, snapshotRoot, s));
    }
    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .thenApply(
            v -> {
              List<Positioned> all = new ArrayList<>();
              for (CompletableFuture<List<Positioned>> r : reads) {
                all.addAll(r.join());
              }
              all.sort(OLDEST_FIRST);
              ExtentMap map = new ExtentMap();
              for (Positioned p : all) {
                LogRecord cut = cut(p, state.getCutsList());
                if (cut != null) {
                  map.add(cut);
                }
              }
              return new LogView(files, snapshotRoot, state, map, stripeDataBytes);
            });
  }

  /** A record and where its writer's index log held it (-1: the flattened index). */
  private record Positioned(LogRecord record, long position) {}

  private static final Comparator<Positioned> OLDEST_FIRST =
      Comparator.<Positioned>comparingLong(p -> p.record().stampMicros())
          .thenComparingInt(p -> p.record().writer())
          .thenComparingLong(Positioned::position);

  /**
   * The record as the truncates after it left it: a cut applies to what its writer had committed
   * when it happened (to all of a flattened index: every cut kept came after it); null if nothing
   * is left.
   */
  private static LogRecord cut(Positioned p, List<LogCutProto> cuts) {
    LogRecord r = p.record();
    for (LogCutProto c : cuts) {
      boolean before = p.position() < 0 || p.position() < c.getIndexLengthsOrDefault(r.writer(), 0);
      if (before && r.logicalEnd() > c.getSize()) {
        if (r.logicalOffset() >= c.getSize()) {
          return null;
        }
        r =
            new LogRecord(
                r.logicalOffset(),
                c.getSize() - r.logicalOffset(),
                r.physicalOffset(),
                r.stampMicros(),
                r.writer());
      }
    }
    return r;
  }

  private static CompletableFuture<List<Positioned>> readRecords(
      LogFiles files, String snapshotRoot, Source s) {
    long bytes = s.to() - s.from();
    if (bytes % LogRecord.BYTES != 0
        || s.from() % LogRecord.BYTES != 0
        || bytes > Integer.MAX_VALUE) {
      return CompletableFuture.failedFuture(
          new TesseraException(
              StatusProto.INTERNAL, "index log " + s.indexId() + " has a partial record"));
    }
    byte[] buf = new byte[(int) bytes];
    return files
        .part(s.indexId(), snapshotRoot)
        .thenCompose(t -> files.io.read(t, s.from(), buf, 0, buf.length))
        .thenApply(
            v -> {
              ByteBuffer in = ByteBuffer.wrap(buf);
              List<Positioned> out = new ArrayList<>(buf.length / LogRecord.BYTES);
              for (long at = s.from(); in.hasRemaining(); at += LogRecord.BYTES) {
                out.add(new Positioned(LogRecord.readFrom(in), s.writer() == 0 ? -1 : at));
              }
              return out;
            });
  }

  /**
   * Reads {@code [pos, pos+len)}; bytes no record covers read as zeros. Extents one writer appended
   * back to back (its strided records: c, c+N, c+2N) are fetched in one read of its data log and
   * scattered, so a large read costs a request per writer, not one per record.
   */
  CompletableFuture<Void> read(long pos, byte[] buf, int off, int len) {
    List<ExtentMap.Extent> pieces = extents.within(pos, len);
    long covered = pos;
    for (ExtentMap.Extent e : pieces) {
      if (e.start() > covered) {
        Arrays.fill(buf, off + (int) (covered - pos), off + (int) (e.start() - pos), (byte) 0);
      }
      covered = e.end();
    }
    if (covered < pos + len) {
      Arrays.fill(buf, off + (int) (covered - pos), off + len, (byte) 0);
    }
    List<CompletableFuture<?>> reads = new ArrayList<>();
    for (List<ExtentMap.Extent> run : runs(pieces)) {
      reads.add(readRun(run, pos, buf, off));
    }
    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
  }

  /** The extents grouped into runs, each contiguous in one writer's data log. */
  private static List<List<ExtentMap.Extent>> runs(List<ExtentMap.Extent> pieces) {
    Map<Integer, List<List<ExtentMap.Extent>>> byWriter = new HashMap<>();
    List<List<ExtentMap.Extent>> all = new ArrayList<>();
    for (ExtentMap.Extent e : pieces) {
      List<List<ExtentMap.Extent>> mine =
          byWriter.computeIfAbsent(e.writer(), w -> new ArrayList<>());
      List<ExtentMap.Extent> last = mine.isEmpty() ? null : mine.get(mine.size() - 1);
      ExtentMap.Extent tail = last == null ? null : last.get(last.size() - 1);
      if (tail != null && tail.physical() + tail.length() == e.physical()) {
        last.add(e);
      } else {
        List<ExtentMap.Extent> run = new ArrayList<>();
        run.add(e);
        mine.add(run);
        all.add(run);
      }
    }
    return all;
  }

  /**
   * One run of a writer's data log: from the window of that log this view holds when it lies in
   * one, else read whole (into the caller's buffer when it is one extent) and scattered.
   */
  private CompletableFuture<Void> readRun(
      List<ExtentMap.Extent> run, long pos, byte[] buf, int off) {
    ExtentMap.Extent first = run.get(0);
    ExtentMap.Extent last = run.get(run.size() - 1);
    long from = first.physical();
    long to = last.physical() + last.length();
    long windowStart = from / windowBytes * windowBytes;
    if (to <= windowStart + windowBytes) {
      return window(first.writer(), windowStart)
          .thenAccept(w -> scatter(run, w, windowStart, pos, buf, off));
    }
    if (run.size() == 1) {
      int at = off + (int) (first.start() - pos);
      return dataLog(first.writer())
          .thenCompose(t -> files.io.read(t, from, buf, at, (int) first.length()));
    }
    byte[] bytes = new byte[(int) (to - from)];
    return dataLog(first.writer())
        .thenCompose(t -> files.io.read(t, from, bytes, 0, bytes.length))
        .thenRun(() -> scatter(run, bytes, from, pos, buf, off));
  }

  private static void scatter(
      List<ExtentMap.Extent> run, byte[] bytes, long bytesAt, long pos, byte[] buf, int off) {
    for (ExtentMap.Extent e : run) {
      System.arraycopy(
          bytes,
          (int) (e.physical() - bytesAt),
          buf,
          off + (int) (e.start() - pos),
          (int) e.length());
    }
  }

  /** Most bytes of windows one view keeps (and fetches ahead). */
  static final long WINDOWS_BYTES = 64L << 20;

  /**
   * Bytes of a data log read at once and kept: one stripe of the logs' layout (all its data units
   * fetched in parallel), at most 16 MiB. A reader of records one after another (a restart reading
   * back a writer's records) then makes a request per unit, not one per record, and the next window
   * is fetched while it reads this one. Logs never change below their committed length, so a window
   * stays right.
   */
  private final long windowBytes;

  /** Windows by writer and start, least recently used first. */
  private final Map<Window, CompletableFuture<byte[]>> windows;

  private record Window(int writer, long start) {}

  private CompletableFuture<byte[]> window(int writer, long start) {
    CompletableFuture<byte[]> w = held(writer, start);
    long next = start + windowBytes;
    if (next < dataLengths.getOrDefault(writer, 0L)) {
      held(writer, next); // read ahead
    }
    return w;
  }

  private CompletableFuture<byte[]> held(int writer, long start) {
    Window key = new Window(writer, start);
    CompletableFuture<byte[]> w;
    synchronized (windows) {
      w = windows.get(key);
      if (w != null && !w.isCompletedExceptionally()) {
        return w;
      }
      w = fetch(writer, start);
      windows.put(key, w);
    }
    return w;
  }

  private CompletableFuture<byte[]> fetch(int writer, long start) {
    long end = Math.min(start + windowBytes, dataLengths.getOrDefault(writer, start));
    byte[] bytes = new byte[(int) Math.max(0, end - start)];
    return dataLog(writer)
        .thenCompose(t -> files.io.read(t, start, bytes, 0, bytes.length))
        .thenApply(v -> bytes);
  }

  private CompletableFuture<FileTarget> dataLog(int writer) {
    Long id = dataLogs.get(writer);
    if (id == null || id == 0) {
      return CompletableFuture.failedFuture(
          new TesseraException(
              StatusProto.INTERNAL, "an index names writer " + writer + ", which has no data log"));
    }
    CompletableFuture<FileTarget> t = targets.computeIfAbsent(id, i -> files.part(i, snapshotRoot));
    t.whenComplete(
        (ok, e) -> {
          if (e != null) {
            targets.remove(id, t); // asked again by the next read
          }
        });
    return t;
  }
}
