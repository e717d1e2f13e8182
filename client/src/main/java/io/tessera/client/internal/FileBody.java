package io.tessera.client.internal;

import io.netty.buffer.ByteBuf;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * How one open regular file's bytes are read and written: the part of a file that depends on its
 * layout kind. {@code TesseraFile} checks arguments and delegates here; the file system chooses the
 * implementation by the kind in the file's layout, in one place.
 */
public interface FileBody {
  /** The size as this handle knows it: at open, grown by its writes, set by its truncates. */
  long size();

  /** Writes {@code buf[off, off+len)} at {@code position}; the array must not change until done. */
  CompletableFuture<Void> write(long position, byte[] buf, int off, int len);

  /** Reads {@code [position, position+len)}, all inside {@link #size()}; holes read as zeros. */
  CompletableFuture<Void> read(long position, byte[] buf, int off, int len);

  /** Reads as {@link #read} does, into a buffer the caller releases. */
  CompletableFuture<ByteBuf> readKept(long position, int len);

  /** Makes every write of this handle durable against power loss, and visible to other clients. */
  CompletableFuture<Void> sync();

  /**
   * Makes every write of this handle visible to other clients, without waiting for disks (a log
   * file holds its writers' records back until then; a striped file's writes are visible once
   * acknowledged).
   */
  CompletableFuture<Void> publish();

  /** Cuts the file to {@code newSize} bytes, or extends it with zeros. */
  CompletableFuture<Void> truncate(long newSize);

  /** Learns the size and state other clients recorded; completes with the size. */
  CompletableFuture<Long> refresh();

  /** Ends this handle's use: whatever it holds back is written and made visible. */
  CompletableFuture<Void> close();

  /** Servers known to hold stale shards of the file (skipped by reads and writes). */
  Set<String> staleServers();

  /** Bytes of data in one stripe: what streams buffer and read ahead in multiples of. */
  long stripeDataBytes();
}
