package io.tessera.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.client.internal.FileTarget;
import io.tessera.client.internal.SizeExtension;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.SeekableByteChannel;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * An open regular file: positional reads and writes that go to all of the file's data servers in
 * parallel. Thread-safe. A write is acknowledged (its future completes, or the blocking call
 * returns) once every data server of it has stored it and the file's size covers it: from then on
 * it survives the crash of any process; {@link #sync()} makes it survive power loss too.
 */
public final class TesseraFile implements Closeable {
  private final FsContext ctx;
  private final String path;
  private final FileTarget target;
  private final long fileId;
  private final StripeLayout layout;

  /** Size the meta group is known to hold for this file (covers every acknowledged write). */
  private final SizeExtender size;

  TesseraFile(FsContext ctx, String path, FileTarget target, long size) {
    this.ctx = ctx;
    this.path = path;
    this.target = target;
    this.fileId = target.fileId();
    this.layout = target.layout();
    this.size = new SizeExtender(ctx.meta, fileId, size);
  }

  /** The path the file was opened by. */
  public String path() {
    return path;
  }

  /** The file's inode number. */
  public long fileId() {
    return fileId;
  }

  /** How the file is striped over data servers. */
  public StripeLayout layout() {
    return layout;
  }

  /**
   * The size as this handle knows it: at open, then grown by this handle's writes and truncates.
   */
  public long size() {
    return size.recorded();
  }

  /**
   * Writes {@code len} bytes of {@code buf} at {@code position}; the array must not change until
   * done.
   */
  public CompletableFuture<Void> writeAsync(long position, byte[] buf, int off, int len) {
    Objects.checkFromIndexSize(off, len, buf.length);
    if (target.inSnapshot()) {
      return CompletableFuture.failedFuture(readOnly());
    }
    if (position < 0) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("negative position " + position));
    }
    if (len == 0) {
      return CompletableFuture.completedFuture(null);
    }
    return ctx.io.write(target, position, buf, off, len, false, size::extendTo);
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
    long n = Math.min(len, size.recorded() - position);
    if (position < 0) {
      return CompletableFuture.failedFuture(
          new IllegalArgumentException("negative position " + position));
    }
    if (n <= 0) {
      return CompletableFuture.completedFuture(len == 0 ? 0 : -1);
    }
    return ctx.io.read(target, position, buf, off, (int) n).thenApply(v -> (int) n);
  }

  /**
   * Reads up to {@code len} bytes at {@code position} into a buffer the caller releases; the bytes
   * stay where the data servers' replies brought them (see {@link TesseraInputStream}). The buffer
   * is empty at or past the end.
   */
  CompletableFuture<ByteBuf> readBufferAsync(long position, int len) {
    long n = Math.min(len, size.recorded() - position);
    if (n <= 0) {
      return CompletableFuture.completedFuture(Unpooled.EMPTY_BUFFER);
    }
    return ctx.io.readKept(target, position, (int) n);
  }

  /** Blocking {@link #readAsync}. */
  public int read(long position, byte[] buf, int off, int len) throws IOException {
    return Futures.get(readAsync(position, buf, off, len));
  }

  /** Reads exactly {@code len} bytes at {@code position}, failing at end of file. */
  public void readFully(long position, byte[] buf, int off, int len) throws IOException {
    if (position + len > size.recorded()) {
      throw new EOFException(
          "reading "
              + len
              + " bytes at "
              + position
              + " passes the end of "
              + path
              + " ("
              + size.recorded()
              + " bytes)");
    }
    read(position, buf, off, len);
  }

  /**
   * Whether this handle reads a snapshot's copy of the file (opened under /.snapshots): it cannot
   * be changed.
   */
  public boolean inSnapshot() {
    return target.inSnapshot();
  }

  private TesseraException readOnly() {
    return new TesseraException(
        StatusProto.READ_ONLY,
        path
            + " is in a snapshot, and snapshots are read-only (tessera snapshot restore brings files back)");
  }

  /**
   * Makes every acknowledged write of this file durable against power loss on every server
   * involved.
   */
  public void sync() throws IOException {
    if (target.inSnapshot()) {
      return;
    }
    Futures.get(ctx.io.sync(target));
  }

  /** Cuts the file to {@code newSize} bytes (or extends it with zeros). */
  public void truncate(long newSize) throws IOException {
    if (newSize < 0) {
      throw new IllegalArgumentException("negative size " + newSize);
    }
    if (target.inSnapshot()) {
      throw readOnly();
    }
    if (target.hasParity()) {
      zeroCutPartOfLastStripe(newSize);
    }
    Futures.get(ctx.io.truncate(target, newSize));
    Futures.get(
        ctx.meta.call(
            MetaRequestProto.newBuilder()
                .setSetAttr(
                    SetAttrRequestProto.newBuilder()
                        .setFileId(fileId)
                        .setSetSize(true)
                        .setSize(newSize))));
    size.reset(newSize);
  }

  /**
   * Before a file with parity is cut inside a stripe, the cut bytes of that stripe become zeros
   * through a parity write, so the parity the servers keep matches what is left.
   */
  private void zeroCutPartOfLastStripe(long newSize) throws IOException {
    long current = Math.max(size.recorded(), refresh());
    long stripeEnd = (layout.stripeOf(newSize) + 1) * layout.stripeDataBytes();
    long end = Math.min(current, stripeEnd);
    if (newSize % layout.stripeDataBytes() == 0 || end <= newSize) {
      return;
    }
    byte[] zeros = new byte[(int) (end - newSize)];
    Futures.get(ctx.io.write(target, newSize, zeros, 0, zeros.length, false, SizeExtension.NONE));
  }

  /** Servers of this file known to hold stale shards (skipped by reads and writes). */
  public Set<String> staleServers() {
    return target.staleServers();
  }

  /**
   * Re-reads the size (to see other writers' appends) and the stale servers other writers recorded.
   */
  public long refresh() throws IOException {
    if (target.inSnapshot()) {
      return size.recorded(); // a snapshot's copy never changes
    }
    // by id: the file may have been renamed since it was opened
    FileStatus s = Futures.get(ctx.async.statById(fileId, null));
    size.observed(s.size());
    target.learnStale(s.staleServers());
    return size.recorded();
  }

  /** A buffered stream reading from {@code position} with read-ahead. */
  public InputStream newInputStream(long position) {
    return new TesseraInputStream(this, position, ctx.readChunk(layout), ctx.readsAhead);
  }

  /** A buffered stream writing from {@code position}; {@code close()} waits for every write. */
  public OutputStream newOutputStream(long position) {
    return new TesseraOutputStream(this, position, ctx.writeBuffer(layout), ctx.writesInFlight);
  }

  /** A seekable channel over this file, starting at position 0. */
  public SeekableByteChannel newByteChannel() {
    return new TesseraByteChannel(this);
  }

  /** Nothing is buffered in a handle; closing only marks the end of use. */
  @Override
  public void close() {}
}
