package io.tessera.client;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Gathers bytes into whole-stripe buffers and keeps several writes in flight, so a sequential
 * writer keeps every data server busy. Each write ends on a stripe boundary of the file (the first
 * one is shortened when the stream starts inside a stripe), so files with parity are written in
 * whole stripes without reading anything back. {@link #flush()} waits for every write.
 */
final class TesseraOutputStream extends OutputStream {
  private record InFlight(CompletableFuture<Void> done, byte[] buffer) {}

  private final TesseraFile file;
  private final int bufferSize;
  private final long stripeBytes;
  private final int maxInFlight;
  private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
  private final ArrayDeque<byte[]> spare = new ArrayDeque<>();
  private byte[] buffer;
  private int filled;

  /**
   * Bytes the current buffer takes before it is written: up to the next stripe boundary past a full
   * buffer.
   */
  private int limit;

  private long position;
  private boolean closed;

  /** The first write that failed: every later call reports it, so no loss goes unnoticed. */
  private IOException failure;

  /** Whether closing the stream closes the file (a stream from create). */
  private final boolean ownsFile;

  TesseraOutputStream(
      TesseraFile file, long position, int bufferSize, int maxInFlight, boolean ownsFile) {
    this.file = file;
    this.ownsFile = ownsFile;
    this.position = position;
    this.bufferSize = bufferSize;
    this.stripeBytes = file.stripeDataBytes();
    this.maxInFlight = maxInFlight;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    ensureOpen();
    Objects.checkFromIndexSize(off, len, b.length);
    while (len > 0) {
      if (buffer == null) {
        buffer = spare.isEmpty() ? new byte[bufferSize] : spare.pop();
        filled = 0;
        int intoStripe = (int) (position % stripeBytes);
        limit = intoStripe == 0 || intoStripe >= bufferSize ? bufferSize : bufferSize - intoStripe;
      }
      int n = Math.min(len, limit - filled);
      System.arraycopy(b, off, buffer, filled, n);
      filled += n;
      off += n;
      len -= n;
      if (filled == limit) {
        submit();
      }
    }
  }

  private void submit() throws IOException {
    if (buffer == null || filled == 0) {
      return;
    }
    while (inFlight.size() >= maxInFlight) {
      awaitOldest();
    }
    inFlight.add(new InFlight(file.writeAsync(position, buffer, 0, filled), buffer));
    position += filled;
    buffer = null;
    filled = 0;
  }

  private void awaitOldest() throws IOException {
    InFlight oldest = inFlight.poll();
    try {
      Futures.get(oldest.done);
    } catch (IOException e) {
      inFlight.clear();
      failure =
          new IOException(
              "a write to "
                  + file.path()
                  + " failed; bytes from the failed write on were not"
                  + " stored: "
                  + e.getMessage(),
              e);
      throw failure;
    }
    spare.push(oldest.buffer);
  }

  @Override
  public void flush() throws IOException {
    ensureOpen();
    submit();
    while (!inFlight.isEmpty()) {
      awaitOldest();
    }
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      if (failure != null) {
        throw failure; // closed by a close that reported the loss: every later close reports it too
      }
      return;
    }
    try {
      flush();
      if (ownsFile) {
        file.close();
      } else {
        Futures.get(file.publishAsync());
      }
    } finally {
      closed = true;
      spare.clear();
    }
  }

  private void ensureOpen() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (closed) {
      throw new IOException("stream to " + file.path() + " is closed");
    }
  }
}
