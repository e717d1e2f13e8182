package io.tessera.client.log;

import io.tessera.client.internal.SizeExtension;
import io.tessera.common.layout.LogRecord;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LogChangeRequestProto;
import io.tessera.common.proto.LogFlattenProto;
import io.tessera.common.proto.LogWriterProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a log file's merged index as one flattened index (PLFS's {@code plfs_flatten_index}, done
 * here on the last close): one record per extent, so an open reads one index log instead of every
 * writer's, and merges nothing.
 */
final class LogFlattener {
  private LogFlattener() {}

  /** Writes {@code view}'s extents to {@code flattener}'s index log and records it. */
  static CompletableFuture<InodeProto> write(
      LogFiles files, long fileId, LogWriter flattener, LogView view) {
    ExtentMap extents = view.extents();
    long bytes = (long) extents.size() * LogRecord.BYTES;
    if (bytes > Integer.MAX_VALUE) {
      return CompletableFuture.failedFuture(
          new TesseraException(
              StatusProto.INVALID_ARGUMENT,
              "file " + fileId + " has too many extents (" + extents.size() + ") to flatten"));
    }
    byte[] index = new byte[(int) bytes];
    ByteBuffer out = ByteBuffer.wrap(index);
    for (ExtentMap.Extent e : extents.all()) {
      new LogRecord(e.start(), e.length(), e.physical(), e.stampMicros(), e.writer()).writeTo(out);
    }
    LogFlattenProto.Builder f =
        LogFlattenProto.newBuilder()
            .setWriter(flattener.writerId())
            .setIndexLength(index.length)
            .setEntries(extents.size())
            .setCutsMerged(view.state().getCutsCount());
    for (LogWriterProto w : view.state().getWritersList()) {
      if (w.getDataFileId() != 0) {
        f.putCovers(w.getWriter(), w.getIndexLength());
      }
    }
    CompletableFuture<Void> written =
        index.length == 0
            ? CompletableFuture.completedFuture(null)
            : files.io.write(
                flattener.indexLog(), 0, index, 0, index.length, false, SizeExtension.NONE);
    return written
        .thenCompose(
            v -> files.change(LogChangeRequestProto.newBuilder().setFileId(fileId).setFlatten(f)))
        .thenApply(r -> r.getInode());
  }
}
