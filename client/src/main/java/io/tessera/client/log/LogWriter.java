package io.tessera.client.log;

import io.tessera.client.internal.FileTarget;
import io.tessera.client.internal.SizeExtension;
import io.tessera.common.layout.LogRecord;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LogChangeRequestProto;
import io.tessera.common.proto.LogCommitProto;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One writer of a log file (a handle's writes): bytes are appended to its data log in whole stripes
 * as they fill, so no write reads parity back or waits for another writer's stripe lock; a record
 * of each write waits in memory for the next commit, which writes the data log's partial tail and
 * the records to the index log, then records the new lengths in the meta group in one entry.
 */
final class LogWriter {
  private final LogFiles files;
  private final long fileId;
  private final int writer;
  private final FileTarget data;
  private final FileTarget index;
  private final int stripeBytes;

  /** The data log's current stripe, from {@link #stripeStart}, filled to {@link #stripeFill}. */
  private byte[] stripe;

  private long stripeStart;
  private int stripeFill;

  /** Records of writes since the last commit. */
  private List<LogRecord> pending = new ArrayList<>();

  /** Stripe writes not known to be done, oldest first. */
  private final ArrayDeque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();

  private long indexWritten;
  private long lastStamp;
  private long logicalEnd;

  /** Commits run one after another (each appends to the index log where the last one ended). */
  private CompletableFuture<InodeProto> lastCommit;

  /**
   * Why a commit failed: the records it carried are lost, and the index log has a gap where they
   * were to go, so this writer takes nothing more (the handle's later writes and syncs fail).
   */
  private volatile Throwable broken;

  LogWriter(
      LogFiles files, long fileId, int writer, FileTarget data, FileTarget index, int stripeBytes) {
    this.files = files;
    this.fileId = fileId;
    this.writer = writer;
    this.data = data;
    this.index = index;
    this.stripeBytes = stripeBytes;
    this.stripe = new byte[data == null ? 0 : stripeBytes]; // a flattener writes no data
    this.lastCommit = CompletableFuture.completedFuture(null);
  }

  int writerId() {
    return writer;
  }

  FileTarget indexLog() {
    return index;
  }

  /** The end of the furthest byte this writer wrote. */
  synchronized long logicalEnd() {
    return logicalEnd;
  }

  /** After a truncate: bytes past {@code size} are no longer this writer's to report. */
  synchronized void truncated(long size) {
    logicalEnd = Math.min(logicalEnd, size);
  }

  /** Whether writes wait for a commit to be seen by readers. */
  synchronized boolean dirty() {
    return !pending.isEmpty();
  }

  /**
   * Appends a write; completes once it is in memory or on its way, and no more than the allowed
   * stripes are in flight.
   */
  synchronized CompletableFuture<Void> append(long position, byte[] buf, int off, int len) {
    if (broken != null) {
      return CompletableFuture.failedFuture(broken);
    }
    long stamp = Math.max(lastStamp + 1, System.currentTimeMillis() * 1000);
    lastStamp = stamp;
    pending.add(new LogRecord(position, len, stripeStart + stripeFill, stamp, writer));
    logicalEnd = Math.max(logicalEnd, position + len);
    int done = 0;
    while (done < len) {
      int n = Math.min(len - done, stripeBytes - stripeFill);
      System.arraycopy(buf, off + done, stripe, stripeFill, n);
      stripeFill += n;
      done += n;
      if (stripeFill == stripeBytes) {
        inFlight.add(
            files.io.write(data, stripeStart, stripe, 0, stripeBytes, false, SizeExtension.NONE));
        stripe = new byte[stripeBytes];
        stripeStart += stripeBytes;
        stripeFill = 0;
      }
    }
    while (!inFlight.isEmpty() && inFlight.peekFirst().isDone()) {
      CompletableFuture<Void> f = inFlight.pollFirst();
      if (f.isCompletedExceptionally()) {
        return f; // the error reaches the writer now, not only at the next sync
      }
    }
    return inFlight.size() > files.stripesInFlight
        ? inFlight.peekFirst()
        : CompletableFuture.completedFuture(null);
  }

  /**
   * Writes what is held back (the data log's partial stripe, the records) and records the new
   * lengths in the meta group; with {@code durable}, after the servers flushed both logs to disk.
   * Completes with the log file's inode as the commit left it.
   */
  synchronized CompletableFuture<InodeProto> commit(boolean durable, boolean close) {
    if (broken != null) {
      return CompletableFuture.failedFuture(broken);
    }
    List<CompletableFuture<Void>> writes = new ArrayList<>(inFlight);
    inFlight.clear();
    if (stripeFill > 0) {
      // the tail: rewritten whole with the bytes after it once its stripe fills
      writes.add(
          files.io.write(data, stripeStart, stripe, 0, stripeFill, false, SizeExtension.NONE));
    }
    long dataLength = stripeStart + stripeFill;
    byte[] records = new byte[pending.size() * LogRecord.BYTES];
    ByteBuffer out = ByteBuffer.wrap(records);
    pending.forEach(r -> r.writeTo(out));
    pending = new ArrayList<>();
    long indexAt = indexWritten;
    indexWritten += records.length;
    long end = logicalEnd;
    CompletableFuture<Void> written =
        CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
    lastCommit =
        lastCommit
            .thenCompose(
                previous ->
                    records.length == 0
                        ? written
                        : written.thenCompose(
                            v ->
                                files.io.write(
                                    index,
                                    indexAt,
                                    records,
                                    0,
                                    records.length,
                                    false,
                                    SizeExtension.NONE)))
            .thenCompose(
                v ->
                    durable
                        ? CompletableFuture.allOf(files.io.sync(data), files.io.sync(index))
                        : CompletableFuture.completedFuture(null))
            .thenCompose(
                v ->
                    files.change(
                        LogChangeRequestProto.newBuilder()
                            .setFileId(fileId)
                            .setCommit(
                                LogCommitProto.newBuilder()
                                    .setWriter(writer)
                                    .setDataLength(dataLength)
                                    .setIndexLength(indexAt + records.length)
                                    .setLogicalEnd(end)
                                    .setClose(close))))
            .thenApply(r -> r.getInode())
            .whenComplete(
                (in, e) -> {
                  if (e != null) {
                    broken = e;
                  }
                });
    return lastCommit;
  }
}
