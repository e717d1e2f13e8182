package io.tessera.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Reads whole-stripe chunks and keeps a window of further chunks in flight while the caller
 * consumes the current one, so a sequential reader keeps every data server busy.
 */
final class TesseraInputStream extends InputStream {
  private final TesseraFile file;
  private final int chunk;
  private final int window;
  private final ArrayDeque<CompletableFuture<byte[]>> ahead = new ArrayDeque<>();
  /** Consumed chunk buffers, reused so that streaming does not zero a fresh array per chunk. */
  private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
  private byte[] current = new byte[0];
  private int currentPos;
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
    java.util.Objects.checkFromIndexSize(off, len, b.length);
    if (len == 0) {
      return 0;
    }
    if (currentPos == current.length && !advance()) {
      return -1;
    }
    int n = Math.min(len, current.length - currentPos);
    System.arraycopy(current, currentPos, b, off, n);
    currentPos += n;
    return n;
  }

  private boolean advance() throws IOException {
    fill();
    CompletableFuture<byte[]> next = ahead.poll();
    if (next == null) {
      return false;
    }
    byte[] got = Futures.get(next);
    if (got.length == 0) {
      return false;
    }
    if (current.length == chunk) {
      spare.push(current);
    }
    current = got;
    currentPos = 0;
    fill();
    return true;
  }

  private void fill() {
    while (ahead.size() < window && nextFetch < file.size()) {
      int n = (int) Math.min(chunk, file.size() - nextFetch);
      byte[] buf = n == chunk && !spare.isEmpty() ? spare.pop() : new byte[n];
      long at = nextFetch;
      nextFetch += n;
      ahead.add(file.readAsync(at, buf, 0, n).thenApply(read -> read == n ? buf : Arrays.copyOf(buf,
          Math.max(0, read))));
    }
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    long inBuffer = Math.min(n, current.length - currentPos);
    currentPos += (int) inBuffer;
    long rest = n - inBuffer;
    if (rest > 0) {
      // skip over chunks already requested, then move the next request further on
      long start = nextFetch;
      for (CompletableFuture<byte[]> f : ahead) {
        start -= Futures.get(f).length;
      }
      ahead.clear();
      long target = Math.min(file.size(), start + rest);
      rest = Math.max(0, target - start);
      nextFetch = target;
    }
    return inBuffer + rest;
  }

  @Override
  public int available() {
    return current.length - currentPos;
  }

  @Override
  public void close() {
    closed = true;
    ahead.clear();
  }
}
