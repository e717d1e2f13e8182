package io.tessera.common.layout;

import java.nio.ByteBuffer;

/**
 * One record of a log file's index log: {@code length} bytes of the file at {@code logicalOffset}
 * were appended at {@code physicalOffset} of writer {@code writer}'s data log at {@code
 * stampMicros} (the writer's wall clock; a later record wins where records overlap). 40 bytes,
 * big-endian.
 */
public record LogRecord(
    long logicalOffset, long length, long physicalOffset, long stampMicros, int writer) {
  public static final int BYTES = 40;

  public void writeTo(ByteBuffer out) {
    out.putLong(logicalOffset)
        .putLong(length)
        .putLong(physicalOffset)
        .putLong(stampMicros)
        .putInt(writer)
        .putInt(0);
  }

  /**
   * The record at {@code in}'s position.
   *
   * @throws IllegalArgumentException for a record no writer could have written (negative offsets or
   *     lengths): a damaged index log
   */
  public static LogRecord readFrom(ByteBuffer in) {
    LogRecord r =
        new LogRecord(in.getLong(), in.getLong(), in.getLong(), in.getLong(), in.getInt());
    in.getInt();
    if (r.logicalOffset < 0
        || r.length <= 0
        || r.physicalOffset < 0
        || r.logicalOffset + r.length < 0
        || r.writer <= 0) {
      throw new IllegalArgumentException("damaged log index record " + r);
    }
    return r;
  }

  public long logicalEnd() {
    return logicalOffset + length;
  }
}
