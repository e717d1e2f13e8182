package io.tessera.hadoop;

import io.tessera.client.TesseraFile;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * A Tessera file written through Hadoop from {@code start}: buffered by the client's striped
 * stream; {@code hflush} and {@code hsync} both wait for every write and sync the file, after which
 * other readers see the bytes and they survive power loss on every server of the file.
 */
final class TesseraFsOutputStream extends OutputStream
    implements Syncable, StreamCapabilities, IOStatisticsSource {
  private final TesseraFile file;
  private final OutputStream out;
  private final AdapterStatistics statistics;
  private boolean closed;

  TesseraFsOutputStream(TesseraFile file, long start, AdapterStatistics statistics) {
    this.file = file;
    this.out = file.newOutputStream(start);
    this.statistics = statistics;
  }

  @Override
  public void write(int b) throws IOException {
    ensureOpen();
    out.write(b);
    statistics.written(1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    ensureOpen();
    out.write(b, off, len);
    statistics.written(len);
  }

  @Override
  public void flush() throws IOException {
    if (!closed) {
      out.flush();
    }
  }

  @Override
  public void hflush() throws IOException {
    sync(false);
  }

  @Override
  public void hsync() throws IOException {
    sync(true);
  }

  private void sync(boolean hsync) throws IOException {
    ensureOpen();
    out.flush();
    file.sync();
    statistics.synced(hsync);
  }

  @Override
  public boolean hasCapability(String capability) {
    return switch (capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.HFLUSH, StreamCapabilities.HSYNC, StreamCapabilities.IOSTATISTICS ->
          true;
      default -> false;
    };
  }

  @Override
  public IOStatistics getIOStatistics() {
    return statistics.getIOStatistics();
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      out.close();
    } finally {
      file.close();
    }
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED);
    }
  }
}
