package io.tessera.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A {@link FileChannel} over positional reads and writes of one file; its {@link #lock} and {@link
 * #tryLock} are region locks ({@link TesseraFile#lock}) held against other clients. Memory mapping
 * is not offered.
 */
public final class TesseraByteChannel extends FileChannel {
  private final TesseraFile file;
  private final Access access;
  private long position;

  /**
   * What a channel may do: read, write, and whether every write goes to the end of the file; its
   * owner closes the file with the channel or not.
   */
  public record Access(boolean read, boolean write, boolean append, boolean closesFile) {
    /** Reads and writes anywhere; the file stays open after the channel. */
    public static final Access READ_WRITE = new Access(true, true, false, false);
  }

  TesseraByteChannel(TesseraFile file, Access access) {
    this.file = file;
    this.access = access;
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    int n = read(dst, position);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      int n = read(dsts[i]);
      if (n < 0) {
        return total == 0 ? -1 : total;
      }
      total += n;
      if (dsts[i].hasRemaining()) {
        break;
      }
    }
    return total;
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    if (access.append()) {
      position = file.size();
    }
    int n = write(src, position);
    position += n;
    return n;
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    long total = 0;
    for (int i = offset; i < offset + length; i++) {
      total += write(srcs[i]);
    }
    return total;
  }

  @Override
  public int read(ByteBuffer dst, long at) throws IOException {
    ensureOpen();
    if (!access.read()) {
      throw new java.nio.channels.NonReadableChannelException();
    }
    if (at < 0) {
      throw new IllegalArgumentException("negative position " + at);
    }
    int len = dst.remaining();
    byte[] buf = new byte[len];
    int n = file.read(at, buf, 0, len);
    if (n > 0) {
      dst.put(buf, 0, n);
    }
    return n;
  }

  @Override
  public int write(ByteBuffer src, long at) throws IOException {
    ensureOpen();
    if (!access.write()) {
      throw new java.nio.channels.NonWritableChannelException();
    }
    if (at < 0) {
      throw new IllegalArgumentException("negative position " + at);
    }
    int len = src.remaining();
    byte[] buf = new byte[len];
    src.get(buf);
    file.write(at, buf, 0, len);
    return len;
  }

  @Override
  public long position() throws IOException {
    ensureOpen();
    return position;
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
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
  public FileChannel truncate(long size) throws IOException {
    ensureOpen();
    if (!access.write()) {
      throw new java.nio.channels.NonWritableChannelException();
    }
    if (size < 0) {
      throw new IllegalArgumentException("negative size " + size);
    }
    if (size < file.size()) {
      file.truncate(size);
    }
    position = Math.min(position, size);
    return this;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    ensureOpen();
    file.sync();
  }

  @Override
  public long transferTo(long at, long count, WritableByteChannel target) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(count, 1 << 20));
    long done = 0;
    while (done < count) {
      buf.clear().limit((int) Math.min(buf.capacity(), count - done));
      int n = read(buf, at + done);
      if (n <= 0) {
        break;
      }
      buf.flip();
      while (buf.hasRemaining()) {
        target.write(buf);
      }
      done += n;
    }
    return done;
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long at, long count) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(count, 1 << 20));
    long done = 0;
    while (done < count) {
      buf.clear().limit((int) Math.min(buf.capacity(), count - done));
      int n = src.read(buf);
      if (n <= 0) {
        break;
      }
      buf.flip();
      write(buf, at + done);
      done += n;
    }
    return done;
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long at, long size) {
    throw new UnsupportedOperationException("Tessera files cannot be memory-mapped");
  }

  /** A region lock, waiting as long as tessera.client.region-lock-timeout. */
  @Override
  public FileLock lock(long at, long size, boolean shared) throws IOException {
    ensureOpen();
    return new Lock(this, file.lock(at, size, shared));
  }

  /** The region lock if it is free now (or given up within a second), else null. */
  @Override
  public FileLock tryLock(long at, long size, boolean shared) throws IOException {
    ensureOpen();
    RegionLock l = file.tryLock(at, size, shared);
    return l == null ? null : new Lock(this, l);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    // unless the channel owns it, the file stays open: its handle belongs to whoever opened it
    if (access.closesFile()) {
      file.close();
    }
  }

  private void ensureOpen() throws IOException {
    if (!isOpen()) {
      throw new ClosedChannelException();
    }
  }

  /** A {@link RegionLock} as a {@link FileLock}. */
  private static final class Lock extends FileLock {
    private final RegionLock region;

    Lock(FileChannel channel, RegionLock region) {
      super(
          channel,
          region.offset(),
          region.length() == 0 ? Long.MAX_VALUE : region.length(),
          region.isShared());
      this.region = region;
    }

    @Override
    public boolean isValid() {
      return region.isValid();
    }

    @Override
    public void release() throws IOException {
      region.release();
    }
  }
}
