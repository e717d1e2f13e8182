package io.tessera.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SeekableByteChannel;

/** A {@link SeekableByteChannel} over positional reads and writes of one file. */
final class TesseraByteChannel implements SeekableByteChannel {
  private final TesseraFile file;
  private long position;
  private boolean open = true;

  TesseraByteChannel(TesseraFile file) {
    this.file = file;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    ensureOpen();
    int len = dst.remaining();
    byte[] buf = new byte[len];
    int n = file.read(position, buf, 0, len);
    if (n > 0) {
      dst.put(buf, 0, n);
      position += n;
    }
    return n;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    ensureOpen();
    int len = src.remaining();
    byte[] buf = new byte[len];
    src.get(buf);
    file.write(position, buf, 0, len);
    position += len;
    return len;
  }

  @Override
  public long position() throws IOException {
    ensureOpen();
    return position;
  }

  @Override
  public SeekableByteChannel position(long newPosition) throws IOException {
    ensureOpen();
    if (newPosition < 0) {
      throw new IllegalArgumentException("negative position " + newPosition);
    }
    position = newPosition;
    return this;
  }

  @Override
  public long size() throws IOException {
    ensureOpen();
    return file.size();
  }

  @Override
  public SeekableByteChannel truncate(long size) throws IOException {
    ensureOpen();
    if (size < file.size()) {
      file.truncate(size);
    }
    position = Math.min(position, size);
    return this;
  }

  @Override
  public boolean isOpen() {
    return open;
  }

  @Override
  public void close() {
    open = false;
  }

  private void ensureOpen() throws IOException {
    if (!open) {
      throw new ClosedChannelException();
    }
  }
}
