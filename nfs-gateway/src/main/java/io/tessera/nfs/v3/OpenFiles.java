package io.tessera.nfs.v3;

import io.tessera.client.Futures;
import io.tessera.client.TesseraFile;
import io.tessera.client.VirtualFileSystem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files the gateway has open, and the UNSTABLE writes it gathers for them. NFS clients write in
 * pieces of at most {@code wtmax} and say COMMIT when they need the bytes durable; between the two
 * the gateway joins contiguous pieces into runs of {@code flushBytes} (whole stripes of a k+m file
 * cost one parity computation instead of many read-modify-writes) and writes them in the
 * background, in order. COMMIT writes what is left and syncs. What is not committed when a gateway
 * dies is lost, and the new write verifier tells clients to send it again.
 */
public final class OpenFiles {
  private static final Logger LOG = LoggerFactory.getLogger(OpenFiles.class);

  private final VirtualFileSystem fs;
  private final int flushBytes;
  private final Semaphore buffered;
  private final long idleMillis;
  private final Map<Key, Open> open = new ConcurrentHashMap<>();

  /** A file as a snapshot (epoch > 0) or the live namespace (0) has it. */
  private record Key(long fileId, long epoch) {}

  /**
   * @param flushBytes gathered bytes written as one run
   * @param bufferBytes gathered bytes held at most, over all files: a WRITE past it waits
   * @param idleMillis a file nobody used for this long is closed
   */
  public OpenFiles(VirtualFileSystem fs, int flushBytes, long bufferBytes, long idleMillis) {
    this.fs = fs;
    this.flushBytes = flushBytes;
    this.buffered = new Semaphore((int) Math.min(Integer.MAX_VALUE, bufferBytes));
    this.idleMillis = idleMillis;
  }

  /**
   * Writes {@code data} at {@code offset}: gathered when {@code unstable}, else durable on return.
   */
  public void write(Node n, long offset, byte[] data, boolean unstable) throws NfsError {
    Open f = open(n);
    try {
      if (unstable) {
        if (!buffered.tryAcquire(data.length)) {
          // full: what other files gathered goes to the cluster now, not at their next COMMIT
          open.values().forEach(Open::flushNow);
          acquire(data.length);
        }
        f.gather(offset, data);
      } else {
        f.drain();
        f.forgetAhead();
        f.file.write(offset, data, 0, data.length);
        f.file.sync();
      }
    } catch (IOException e) {
      throw NfsError.of(e);
    }
  }

  /** Reads after the file's gathered writes are written, so a reader sees them. */
  public byte[] read(Node n, long offset, int count) throws NfsError {
    Open f = open(n);
    try {
      f.drain();
      long size = f.file.size();
      if (offset + count > size && !n.readOnly()) {
        size = f.file.refresh();
      }
      int len = (int) Math.max(0, Math.min(count, size - offset));
      return len == 0 ? new byte[0] : f.read(offset, len);
    } catch (IOException e) {
      throw NfsError.of(e);
    }
  }

  /** COMMIT: every gathered write of the file written, then synced. */
  public void commit(Node n) throws NfsError {
    Open f = open.get(key(n));
    if (f == null) {
      return; // nothing was written through this gateway since it started
    }
    try {
      f.drain();
      f.file.sync();
    } catch (IOException e) {
      throw NfsError.of(e);
    }
  }

  /** SETATTR size: gathered writes first, then the cut (or the extension with zeros). */
  public void truncate(Node n, long size) throws NfsError {
    Open f = open(n);
    try {
      f.drain();
      f.file.truncate(size);
      f.truncated(size);
    } catch (IOException e) {
      throw NfsError.of(e);
    }
  }

  /** Writes what is gathered for the file (before a truncate or a remove). */
  public void drain(Node n) throws NfsError {
    Open f = open.get(key(n));
    if (f != null) {
      try {
        f.drain();
      } catch (IOException e) {
        throw NfsError.of(e);
      }
    }
  }

  /** The size clients should see: past the namespace's while gathered writes extend the file. */
  public long size(Node n) {
    Open f = open.get(key(n));
    return f == null ? n.status().size() : Math.max(n.status().size(), f.end());
  }

  /**
   * Closes files idle for longer than the idle time; what such a file still gathers (its client
   * went away before COMMIT) is written first.
   */
  public void closeIdle() {
    long now = System.currentTimeMillis();
    for (Iterator<Open> it = open.values().iterator(); it.hasNext(); ) {
      Open f = it.next();
      if (now - f.lastUse > idleMillis) {
        f.flushNow();
        if (f.idle()) {
          it.remove();
          // a log file's writes become visible to other clients (and its index flattened) here
          f.file
              .closeAsync()
              .whenComplete(
                  (v, e) -> {
                    if (e != null) {
                      LOG.warn("Closing idle {}: {}", f.file.path(), e.getMessage());
                    }
                  });
        }
      }
    }
  }

  private void acquire(int bytes) throws IOException {
    try {
      buffered.acquire(bytes);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted");
    }
  }

  private static Key key(Node n) {
    return new Key(n.handle().fileId(), n.handle().epoch());
  }

  private Open open(Node n) throws NfsError {
    Open f = open.get(key(n));
    if (f == null) {
      try {
        f = new Open(Futures.get(fs.openById(n.handle().fileId(), Resolver.snapshotOf(n.path()))));
      } catch (IOException e) {
        throw NfsError.of(e);
      }
      Open raced = open.putIfAbsent(key(n), f);
      f = raced == null ? f : raced;
    }
    f.lastUse = System.currentTimeMillis();
    return f;
  }

  /**
   * One open file: its gathered run, the runs being written (several at once; a run waits only for
   * those it overlaps, so a rewrite never lands before the write it replaces) and the read ahead of
   * a sequential reader.
   */
  private final class Open {
    final TesseraFile file;

    /** Bytes of one stripe's data units: runs are cut at these boundaries. */
    private final long stripe;

    volatile long lastUse;
    private long runStart;
    private byte[] run;
    private int runLength;
    private long end;
    private final List<Flight> flying = new ArrayList<>();
    private Throwable failure;
    private long aheadAt = -1;
    private CompletableFuture<byte[]> ahead;

    /** A run being written: its range and when it is done. */
    private record Flight(long start, long end, CompletableFuture<Void> done) {}

    Open(TesseraFile file) {
      this.file = file;
      this.stripe = file.stripeDataBytes();
    }

    synchronized void gather(long offset, byte[] data) {
      if (run != null && offset != runStart + runLength) {
        flush();
      }
      if (run == null) {
        run = new byte[Math.max(flushBytes, data.length)];
        runStart = offset;
        runLength = 0;
      }
      if (runLength + data.length > run.length) {
        run = Arrays.copyOf(run, Math.max(run.length * 2, runLength + data.length));
      }
      System.arraycopy(data, 0, run, runLength, data.length);
      runLength += data.length;
      end = Math.max(end, offset + data.length);
      ahead = null; // what was read ahead may predate this write
      if (runLength >= Math.max(flushBytes, stripe)) {
        flushWholeStripes();
      }
    }

    /**
     * Writes the run up to its last stripe boundary (whole stripes: no parity read-modify-write)
     * and keeps the rest gathering.
     */
    private void flushWholeStripes() {
      long aligned = (runStart + runLength) / stripe * stripe;
      int cut = (int) (aligned - runStart);
      if (cut <= 0 || cut >= runLength) {
        flush();
        return;
      }
      byte[] tail = Arrays.copyOfRange(run, cut, runLength);
      runLength = cut;
      flush();
      run = new byte[Math.max(flushBytes, tail.length)];
      System.arraycopy(tail, 0, run, 0, tail.length);
      runStart = aligned;
      runLength = tail.length;
    }

    /** Starts writing the gathered run once the runs it overlaps are written. */
    private void flush() {
      if (run == null) {
        return;
      }
      byte[] bytes = run;
      int len = runLength;
      long at = runStart;
      run = null;
      flying.removeIf(f -> f.done().isDone());
      CompletableFuture<?>[] before =
          flying.stream()
              .filter(f -> f.start() < at + len && at < f.end())
              .map(Flight::done)
              .toArray(CompletableFuture[]::new);
      CompletableFuture<Void> done =
          CompletableFuture.allOf(before)
              .exceptionally(e -> null)
              .thenCompose(v -> file.writeAsync(at, bytes, 0, len))
              .handle(
                  (v, e) -> {
                    buffered.release(len);
                    if (e != null) {
                      failed(e);
                    }
                    return null;
                  });
      flying.add(new Flight(at, at + len, done));
    }

    synchronized void flushNow() {
      flush();
    }

    private synchronized void failed(Throwable e) {
      failure = failure == null ? e : failure;
    }

    void drain() throws IOException {
      CompletableFuture<Void> done;
      synchronized (this) {
        flush();
        done =
            CompletableFuture.allOf(
                flying.stream().map(Flight::done).toArray(CompletableFuture[]::new));
      }
      Futures.get(done);
      synchronized (this) {
        flying.removeIf(f -> f.done().isDone());
        if (failure != null) {
          Throwable t = failure;
          failure = null;
          throw new IOException("a gathered write failed: " + t.getMessage(), t);
        }
      }
    }

    /**
     * Reads {@code len} bytes at {@code offset}, from what was read ahead when the reader goes on
     * where it stopped, and reads the next piece ahead.
     */
    byte[] read(long offset, int len) throws IOException {
      CompletableFuture<byte[]> mine;
      synchronized (this) {
        mine = offset == aheadAt && ahead != null ? ahead : null;
        ahead = null;
      }
      byte[] out = null;
      if (mine != null) {
        byte[] got = Futures.get(mine);
        out = got.length == len ? got : null;
      }
      if (out == null) {
        out = new byte[len];
        file.readFully(offset, out, 0, len);
      }
      long next = offset + len;
      int nextLen = (int) Math.min(len, file.size() - next);
      if (nextLen > 0) {
        byte[] buf = new byte[nextLen];
        CompletableFuture<byte[]> f = file.readAsync(next, buf, 0, nextLen).thenApply(n -> buf);
        synchronized (this) {
          aheadAt = next;
          ahead = f;
        }
      }
      return out;
    }

    synchronized void truncated(long size) {
      end = size;
      ahead = null;
    }

    synchronized void forgetAhead() {
      ahead = null;
    }

    synchronized long end() {
      return end;
    }

    synchronized boolean idle() {
      flying.removeIf(f -> f.done().isDone());
      return run == null && flying.isEmpty();
    }
  }
}
