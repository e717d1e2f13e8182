package io.tessera.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.client.internal.FileBody;
import io.tessera.client.region.RegionLocks;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.region.Region;
import io.tessera.common.status.TesseraException;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An open regular file: positional reads and writes that go to all of the file's data servers in
 * parallel. Thread-safe. A write is acknowledged (its future completes, or the blocking call
 * returns) once every data server of it has stored it and the file's size covers it: from then on
 * it survives the crash of any process; {@link #sync()} makes it survive power loss too, and so
 * does {@link #close()} of the handle that created the file, unless {@code
 * tessera.client.sync-on-close} is off.
 */
public final class TesseraFile implements Closeable {
  private final FsContext ctx;
  private final String path;
  private final long fileId;
  private final boolean inSnapshot;
  private final FileBody body;

  /** A striped file's layout; null for a log file, whose writers' logs each have one. */
  private final StripeLayout layout;

  /** The sharing intent this handle declared, or null. */
  private volatile Sharing sharing;

  /** Region locks taken through this handle and not yet released. */
  private final Set<RegionLock> locks = ConcurrentHashMap.newKeySet();

  /** Whether this handle wrote or truncated since its last sync. */
  private final AtomicBoolean unsynced = new AtomicBoolean();

  /** Whether this handle created the file: its close then syncs (a new file is published). */
  private final boolean created;

  TesseraFile(
      FsContext ctx,
      String path,
      long fileId,
      boolean inSnapshot,
      FileBody body,
      StripeLayout layout,
      boolean created) {
    this.created = created;
    this.ctx = ctx;
    this.path = path;
    this.fileId = fileId;
    this.inSnapshot = inSnapshot;
    this.body = body;
    this.layout = layout;
  }

  /** The path the file was opened by. */
  public String path() {
    return path;
  }

  /** The file's inode number. */
  public long fileId() {
    return fileId;
  }

  /**
   * How the file is striped over data servers; null for a log file (its writers' logs are striped
   * files of their own).
   */
  public StripeLayout layout() {
    return layout;
  }

  /**
   * The size as this handle knows it: at open, then grown by this handle's writes and truncates.
   */
  public long size() {
    return body.size();
  }

  /**
   * Writes {@code len} bytes of {@code buf} at {@code position}; the array must not change until
   * done.
   */
  public CompletableFuture<Void> writeAsync(long position, byte[] buf, int off, int len) {
    Objects.checkFromIndexSize(off, len, buf.length);
    if (inSnapshot) {
      return CompletableFuture.failedFuture(readOnly());
    }
    if (position < 0) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("negative position " + position));
    }
    if (len == 0) {
      return CompletableFuture.completedFuture(null);
    }
    unsynced.set(true);
    return body.write(position, buf, off, len);
  }

  /** Blocking {@link #writeAsync}. */
  public void write(long position, byte[] buf, int off, int len) throws IOException {
    Futures.get(writeAsync(position, buf, off, len));
  }

  /**
   * Reads up to {@code len} bytes at {@code position}.
   *
   * @return bytes read, or -1 when {@code position} is at or past the end
   */
  public CompletableFuture<Integer> readAsync(long position, byte[] buf, int off, int len) {
    Objects.checkFromIndexSize(off, len, buf.length);
    long n = Math.min(len, body.size() - position);
    if (position < 0) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("negative position " + position));
    }
    if (n <= 0) {
      return CompletableFuture.completedFuture(len == 0 ? 0 : -1);
    }
    return body.read(position, buf, off, (int) n).thenApply(v -> (int) n);
  }

  /**
   * Reads up to {@code len} bytes at {@code position} into a buffer the caller releases; the bytes
   * stay where the data servers' replies brought them (see {@link TesseraInputStream}). The buffer
   * is empty at or past the end.
   */
  CompletableFuture<ByteBuf> readBufferAsync(long position, int len) {
    long n = Math.min(len, body.size() - position);
    if (n <= 0) {
      return CompletableFuture.completedFuture(Unpooled.EMPTY_BUFFER);
    }
    return body.readKept(position, (int) n);
  }

  /** Blocking {@link #readAsync}. */
  public int read(long position, byte[] buf, int off, int len) throws IOException {
    return Futures.get(readAsync(position, buf, off, len));
  }

  /** Reads exactly {@code len} bytes at {@code position}, failing at end of file. */
  public void readFully(long position, byte[] buf, int off, int len) throws IOException {
    if (position + len > body.size()) {
      throw new EOFException(
          "reading "
              + len
              + " bytes at "
              + position
              + " passes the end of "
              + path
              + " ("
              + body.size()
              + " bytes)");
    }
    read(position, buf, off, len);
  }

  /**
   * Whether this handle reads a snapshot's copy of the file (opened under /.snapshots): it cannot
   * be changed.
   */
  public boolean inSnapshot() {
    return inSnapshot;
  }

  private TesseraException readOnly() {
    return new TesseraException(
        StatusProto.READ_ONLY,
        path
            + " is in a snapshot, and snapshots are read-only (tessera snapshot restore brings files back)");
  }

  /**
   * Makes every acknowledged write of this file durable against power loss on every server
   * involved; a log file's writes become visible to other clients here (or at close).
   */
  public void sync() throws IOException {
    if (inSnapshot) {
      return;
    }
    Futures.get(syncAsync());
  }

  /** {@link #sync()} without waiting. */
  public CompletableFuture<Void> syncAsync() {
    if (inSnapshot) {
      return CompletableFuture.completedFuture(null);
    }
    unsynced.set(false); // a write that starts from here on is not covered
    return body.sync()
        .whenComplete(
            (v, t) -> {
              if (t != null) {
                unsynced.set(true);
              }
            });
  }

  /** Cuts the file to {@code newSize} bytes (or extends it with zeros). */
  public void truncate(long newSize) throws IOException {
    Futures.get(truncateAsync(newSize));
  }

  /** {@link #truncate} without waiting. */
  public CompletableFuture<Void> truncateAsync(long newSize) {
    if (newSize < 0) {
      return CompletableFuture.failedFuture(
          new TesseraException(StatusProto.INVALID_ARGUMENT, "negative size " + newSize));
    }
    if (inSnapshot) {
      return CompletableFuture.failedFuture(readOnly());
    }
    unsynced.set(true);
    return body.truncate(newSize);
  }

  /** Servers of this file known to hold stale shards (skipped by reads and writes). */
  public Set<String> staleServers() {
    return body.staleServers();
  }

  /**
   * Re-reads the size (to see other writers' appends, a log file's other writers' synced writes)
   * and the stale servers other writers recorded.
   */
  public long refresh() throws IOException {
    return Futures.get(body.refresh());
  }

  /** A buffered stream reading from {@code position} with read-ahead. */
  public InputStream newInputStream(long position) {
    return new TesseraInputStream(
        this, position, ctx.readChunk(body.stripeDataBytes()), ctx.readsAhead);
  }

  /**
   * A buffered stream writing from {@code position}; {@code close()} waits for every write and
   * makes them visible to other clients (the handle stays open).
   */
  public OutputStream newOutputStream(long position) {
    return new TesseraOutputStream(
        this, position, ctx.writeBuffer(body.stripeDataBytes()), ctx.writesInFlight, false);
  }

  /** A stream as {@link #newOutputStream} gives, that closes this handle when it is closed. */
  OutputStream newOwningOutputStream(long position) {
    return new TesseraOutputStream(
        this, position, ctx.writeBuffer(body.stripeDataBytes()), ctx.writesInFlight, true);
  }

  /**
   * Makes this handle's writes visible to other clients (a log file's are held back until then).
   */
  CompletableFuture<Void> publishAsync() {
    return body.publish();
  }

  /**
   * A channel over this file, starting at position 0; its {@code lock} and {@code tryLock} are
   * region locks.
   */
  public FileChannel newByteChannel() {
    return new TesseraByteChannel(this, TesseraByteChannel.Access.READ_WRITE);
  }

  /** A channel over this file that may do what {@code access} says. */
  public FileChannel newByteChannel(TesseraByteChannel.Access access) {
    return new TesseraByteChannel(this, access);
  }

  /** Bytes of data in one stripe (of a log file: of its writers' logs). */
  public long stripeDataBytes() {
    return body.stripeDataBytes();
  }

  /**
   * Locks bytes {@code [position, position + size)} ({@code size} 0: to the end of any file)
   * against other clients, shared or exclusive, waiting as long as {@code
   * tessera.client.region-lock-timeout} for those who hold an overlapping lock; like {@link
   * java.nio.channels.FileChannel#lock(long, long, boolean)}. A region this client released before
   * and no other client asked for since is locked again without a round trip.
   *
   * @throws TesseraException BUSY when it stayed locked elsewhere that long, naming the holder
   */
  public RegionLock lock(long position, long size, boolean shared) throws IOException {
    return lock(position, size, shared, ctx.regionLockTimeout);
  }

  /** {@link #lock(long, long, boolean)} waiting at most {@code timeout}. */
  public RegionLock lock(long position, long size, boolean shared, Duration timeout)
      throws IOException {
    return held(ctx.regions.lock(fileId, Region.of(position, size, !shared), timeout, false));
  }

  /**
   * The lock if the region is free now (or held by another client that gives it up within a second,
   * as a cached lock it does not use is), else null.
   */
  public RegionLock tryLock(long position, long size, boolean shared) throws IOException {
    RegionLocks.Active a =
        ctx.regions.lock(fileId, Region.of(position, size, !shared), Duration.ZERO, true);
    return a == null ? null : held(a);
  }

  private RegionLock held(RegionLocks.Active a) {
    RegionLock l = new RegionLock(this, a);
    locks.add(l);
    return l;
  }

  void forget(RegionLock l) {
    locks.remove(l);
  }

  /** Declares this handle's sharing intent (refused when another client's conflicts). */
  void declare(Sharing s) throws IOException {
    ctx.regions.open(fileId, s.proto);
    sharing = s;
  }

  /** The sharing intent this handle declared at open, or null. */
  public Sharing sharing() {
    return sharing;
  }

  /**
   * Ends the use of the handle: if it created the file, what it wrote is made durable (unless
   * {@code tessera.client.sync-on-close} is off; a file opened to change it is synced when asked,
   * as POSIX does), its region locks are released and its sharing intent ended. A striped file's
   * handle buffers nothing; a log file's writes are committed here (made visible to other clients),
   * and the last writer to close flattens its index.
   */
  @Override
  public void close() throws IOException {
    Futures.get(closeAsync());
  }

  /** {@link #close()} without waiting for the file's data (locks and intents end first). */
  public CompletableFuture<Void> closeAsync() {
    try {
      for (RegionLock l : List.copyOf(locks)) {
        l.release();
      }
      Sharing s = sharing;
      if (s != null) {
        sharing = null;
        ctx.regions.close(fileId, s.proto);
      }
    } catch (IOException e) {
      return body.close().thenCompose(v -> CompletableFuture.failedFuture(e));
    }
    if (!ctx.syncOnClose || !created || !unsynced.get()) {
      return body.close();
    }
    // the body closes whether or not the sync succeeded; the sync's failure is the close's
    return syncAsync()
        .handle((v, t) -> t)
        .thenCompose(
            failed ->
                body.close()
                    .thenCompose(
                        v ->
                            failed == null
                                ? CompletableFuture.<Void>completedFuture(null)
                                : CompletableFuture.<Void>failedFuture(failed)));
  }
}
