package io.tessera.client;

import io.tessera.common.layout.LogRecord;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LogStateProto;
import io.tessera.common.proto.LogWriterProto;

/**
 * What {@code stat} tells of a log-structured file.
 *
 * @param layout the layout of its writers' data and index logs
 * @param writers writers that ever wrote it (a client's open for writing each)
 * @param openWriters writers still open (a client that died while writing stays open)
 * @param indexEntries index records an open merges: the flattened index's and those after it
 * @param flattened whether one flattened index holds every committed record (opens read one index)
 */
public record LogStatus(
    LayoutPolicy layout, int writers, int openWriters, long indexEntries, boolean flattened) {
  static LogStatus of(InodeProto in) {
    LogStateProto s = in.getLog();
    int writers = 0;
    int open = 0;
    long tails = 0;
    for (LogWriterProto w : s.getWritersList()) {
      if (w.getDataFileId() == 0) {
        continue; // a flattener at work
      }
      writers++;
      open += w.getOpen() ? 1 : 0;
      tails += (w.getIndexLength() - s.getFlatCoversOrDefault(w.getWriter(), 0)) / LogRecord.BYTES;
    }
    var l = in.getLayout();
    return new LogStatus(
        new LayoutPolicy(l.getDataUnits(), l.getParityUnits(), l.getStripeUnit(), true),
        writers,
        open,
        s.getFlatEntries() + tails,
        s.getFlatIndexFileId() != 0 && tails == 0 && s.getCutsCount() == 0);
  }
}
