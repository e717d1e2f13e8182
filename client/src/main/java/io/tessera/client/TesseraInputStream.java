package io.tessera.client;

import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Reads whole-stripe chunks and keeps a window of further chunks in flight while the caller
 * consumes the current one, so a sequential reader keeps every data server busy. A chunk stays in
 * the buffers the replies arrived in, so each byte is copied once, into the caller's array.
 */
final class TesseraInputStream extends InputStream {
  private final TesseraFile file;
  private final int chunk;
  private final int window;
  private final ArrayDeque<CompletableFuture<ByteBuf>> ahead = new ArrayDeque<>();
  private ByteBuf current;

  /** File position of the first byte not yet requested. */
  private long nextFetch;

  private boolean closed;

  TesseraInputStream(TesseraFile file, long position, int chunk, int window) {
    this.file = file;
    this.chunk = chunk;
    this.window = Math.max(1, window);
    this.nextFetch = position;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (closed) {
      throw new IOException("stream from " + file.path() + " is closed");
    }
    Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (available() == 0 && !advance()) {
      return -1;
    }
    int n = Math.min(len, current.readableBytes());
    current.readBytes(b, off, n);
    return n;
  }

  private boolean advance() throws IOException {
    dropCurrent();
    fill();
    CompletableFuture<ByteBuf> next = ahead.poll();
    if (next == null) {
      return false;
    }
    current = Futures.get(next);
    fill();
    return current.isReadable();
  }

  private void fill() {
    while (ahead.size() < window && nextFetch < file.size()) {
      int n = (int) Math.min(chunk, file.size() - nextFetch);
      ahead.add(file.readBufferAsync(nextFetch, n));
      nextFetch += n;
    }
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    long inBuffer = Math.min(n, available());
    if (inBuffer > 0) {
      current.skipBytes((int) inBuffer);
    }
    long rest = n - inBuffer;
    if (rest > 0) {
      // skip over chunks already requested, then move the next request further on
      long start = nextFetch;
      for (CompletableFuture<ByteBuf> f : ahead) {
        start -= Futures.get(f).readableBytes();
      }
      dropAhead();
      long target = Math.min(file.size(), start + rest);
      rest = Math.max(0, target - start);
      nextFetch = target;
    }
    return inBuffer + rest;
  }

  @Override
  public int available() {
    return current == null ? 0 : current.readableBytes();
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      dropCurrent();
      dropAhead();
    }
  }

  private void dropCurrent() {
    if (current != null) {
      current.release();
      current = null;
    }
  }

  /** Releases every chunk requested ahead, now or when it arrives. */
  private void dropAhead() {
    for (CompletableFuture<ByteBuf> f : ahead) {
      f.thenAccept(ByteBuf::release);
    }
    ahead.clear();
  }
}
