package io.tessera.hadoop;

import io.tessera.client.TesseraFile;
import java.io.BufferedOutputStream;
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
  private static final int GATHER_BYTES = 1 << 20;

  private final TesseraFile file;
  private final OutputStream out;
  private final AdapterStatistics statistics;
  private boolean closed;

  TesseraFsOutputStream(TesseraFile file, long start, AdapterStatistics statistics) {
    this.file = file;
    // Hadoop's copy loops write io.file.buffer.size (4 KiB) at a time: gathered here, the striped
    // stream sees few large writes
    this.out = new BufferedOutputStream(file.newOutputStream(start), GATHER_BYTES);
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
