package io.tessera.hadoop;

import io.tessera.client.TesseraFile;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.hadoop.fs.CanUnbuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.statistics.IOStatistics;
import org.apache.hadoop.fs.statistics.IOStatisticsSource;

/**
 * A Tessera file read through Hadoop: sequential reads through the client's read-ahead stream
 * (started again where a seek lands), positioned and vectored reads straight from the file, no
 * state shared between the two.
 */
final class TesseraFsInputStream extends FSInputStream
    implements CanUnbuffer, StreamCapabilities, IOStatisticsSource {
  private final TesseraFile file;
  private final FileSystem.Statistics hadoopStatistics;
  private final AdapterStatistics statistics;
  private final long size;
  private InputStream sequential;
  private long position;
  private boolean closed;

  TesseraFsInputStream(
      TesseraFile file, FileSystem.Statistics hadoopStatistics, AdapterStatistics statistics) {
    this.file = file;
    this.hadoopStatistics = hadoopStatistics;
    this.statistics = statistics;
    this.size = file.size();
  }

  @Override
  public synchronized void seek(long pos) throws IOException {
    ensureOpen();
    if (pos < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK + ": " + pos);
    }
    if (pos > size) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF + ": " + pos);
    }
    if (pos != position) {
      statistics.seek();
      dropSequential();
      position = pos;
    }
  }

  @Override
  public synchronized long getPos() throws IOException {
    return position;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false; // every read already decodes around servers that fail
  }

  @Override
  public synchronized int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n <= 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public synchronized int read(byte[] b, int off, int len) throws IOException {
    ensureOpen();
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (position >= size) {
      return -1;
    }
    if (sequential == null) {
      sequential = file.newInputStream(position);
    }
    int n = sequential.read(b, off, len);
    if (n > 0) {
      position += n;
      counted(n);
    }
    return n;
  }

  @Override
  public int read(long pos, byte[] b, int off, int len) throws IOException {
    ensureOpen();
    validatePositionedReadArgs(pos, b, off, len);
    if (len == 0) {
      return 0;
    }
    if (pos >= size) {
      return -1;
    }
    int n = file.read(pos, b, off, (int) Math.min(len, size - pos));
    if (n > 0) {
      counted(n);
    }
    return n;
  }

  private void counted(int n) {
    statistics.read(n);
    if (hadoopStatistics != null) {
      hadoopStatistics.incrementBytesRead(n);
    }
  }

  @Override
  public synchronized int available() throws IOException {
    ensureOpen();
    return (int) Math.min(Integer.MAX_VALUE, size - position);
  }

  @Override
  public synchronized void unbuffer() {
    dropSequential();
  }

  @Override
  public boolean hasCapability(String capability) {
    return switch (capability.toLowerCase(java.util.Locale.ROOT)) {
      case StreamCapabilities.READAHEAD,
          StreamCapabilities.UNBUFFER,
          StreamCapabilities.IOSTATISTICS,
          StreamCapabilities.VECTOREDIO ->
          true;
      default -> false;
    };
  }

  @Override
  public IOStatistics getIOStatistics() {
    return statistics.getIOStatistics();
  }

  @Override
  public synchronized void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    dropSequential();
    file.close();
  }

  private void dropSequential() {
    if (sequential != null) {
      try {
        sequential.close();
      } catch (IOException e) {
        // only buffers are released
      }
      sequential = null;
    }
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED);
    }
  }
}
