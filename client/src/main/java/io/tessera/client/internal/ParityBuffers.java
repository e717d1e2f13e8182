package io.tessera.client.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The parity units of whole-stripe writes, handed to the next write once the servers stored them.
 * Without it a sequential writer of a 6+3 file with 1 MiB units allocates 3 MiB per stripe, and the
 * buffers of the writes in flight live through young collections, which copy them. Keeps at most
 * {@code maxBytes} of free buffers.
 */
final class ParityBuffers {
  private final long maxBytes;
  private final Map<Integer, ConcurrentLinkedDeque<byte[]>> free = new ConcurrentHashMap<>();
  private final AtomicLong kept = new AtomicLong();

  ParityBuffers(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** A buffer of {@code size} bytes with arbitrary contents: the encoder overwrites every byte. */
  byte[] take(int size) {
    ConcurrentLinkedDeque<byte[]> same = free.get(size);
    byte[] b = same == null ? null : same.pollFirst();
    if (b == null) {
      return new byte[size];
    }
    kept.addAndGet(-size);
    return b;
  }

  /** Gives back a buffer nothing refers to any more (no request in flight holds it). */
  void give(byte[] b) {
    if (kept.addAndGet(b.length) > maxBytes) {
      kept.addAndGet(-b.length);
      return;
    }
    free.computeIfAbsent(b.length, s -> new ConcurrentLinkedDeque<>()).addFirst(b);
  }

  /** Bytes of free buffers kept. */
  long keptBytes() {
    return kept.get();
  }
}
