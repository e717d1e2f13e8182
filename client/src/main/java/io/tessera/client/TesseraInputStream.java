package io.tessera.client;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;

/**
 * Reads whole-stripe chunks and fetches the next chunk while the caller consumes the
 * current one, so a sequential reader keeps every data server busy.
 */
final class TesseraInputStream extends InputStream {
  private final TesseraFile file;
  private final int chunk;
  private byte[] current = new byte[0];
  private int currentPos;
  private long nextFetch;
  private CompletableFuture<byte[]> prefetch;
  private boolean closed;

  TesseraInputStream(TesseraFile file, long position, int chunk) {
    this.file = file;
    this.chunk = chunk;
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
    CompletableFuture<byte[]> next = prefetch != null ? prefetch : fetch();
    prefetch = null;
    byte[] got = next == null ? null : Futures.get(next);
    if (got == null || got.length == 0) {
      return false;
    }
    current = got;
    currentPos = 0;
    prefetch = fetch();
    return true;
  }

  private CompletableFuture<byte[]> fetch() {
    long remaining = file.size() - nextFetch;
    if (remaining <= 0) {
      return null;
    }
    int n = (int) Math.min(chunk, remaining);
    byte[] buf = new byte[n];
    long at = nextFetch;
    nextFetch += n;
    return file.readAsync(at, buf, 0, n).thenApply(read -> read == n ? buf : java.util.Arrays.copyOf(buf,
        Math.max(0, read)));
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
      // drop the read-ahead and continue further on
      long start = prefetch != null ? nextFetch - chunkLengthOf(prefetch) : nextFetch;
      prefetch = null;
      long target = Math.min(file.size(), start + rest);
      rest = target - start;
      nextFetch = target;
    }
    return inBuffer + rest;
  }

  private static long chunkLengthOf(CompletableFuture<byte[]> f) {
    try {
      return f.join().length;
    } catch (RuntimeException e) {
      return 0;
    }
  }

  @Override
  public int available() {
    return current.length - currentPos;
  }

  @Override
  public void close() {
    closed = true;
  }
}
