package io.tessera.meta.recovery;

import io.netty.util.ReferenceCounted;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Unit-sized arrays for the stripes a rebuild has in flight, reused from one chunk to the next. A
 * rebuild reads k units of a stripe and decodes into the others to write one, so fresh arrays for
 * every chunk would allocate many times the bytes rebuilt; on the meta leader that drove the serial
 * collector into a full collection every 2 s or so while a rebuild ran.
 *
 * <p>An array comes back only after every buffer that wrapped it for sending was released, that is
 * once Netty wrote it out or dropped it: a request still queued after its call gave up never sees
 * its bytes change under it (its arrays are left to the garbage collector instead).
 */
final class UnitBuffers {
  private final long maxKeptBytes;
  private final Map<Integer, ArrayDeque<byte[]>> free = new HashMap<>();
  private long keptBytes;

  /**
   * @param maxKeptBytes most bytes kept for reuse between chunks; arrays beyond are dropped
   */
  UnitBuffers(long maxKeptBytes) {
    this.maxKeptBytes = maxKeptBytes;
  }

  /**
   * An array of exactly {@code size} bytes whose content is arbitrary (a reused one is not
   * cleared).
   */
  synchronized byte[] take(int size) {
    ArrayDeque<byte[]> q = free.get(size);
    byte[] a = q == null ? null : q.pollFirst();
    if (a == null) {
      return new byte[size];
    }
    keptBytes -= size;
    return a;
  }

  /**
   * Takes the arrays back for reuse if every buffer in {@code sent} has been released; otherwise (a
   * write still queued somewhere) keeps none of them. Null entries are skipped.
   */
  void giveBack(byte[][][] arrays, List<? extends ReferenceCounted> sent) {
    for (ReferenceCounted b : sent) {
      if (b.refCnt() != 0) {
        return;
      }
    }
    synchronized (this) {
      for (byte[][] stripe : arrays) {
        for (byte[] a : stripe) {
          if (a != null && keptBytes + a.length <= maxKeptBytes) {
            free.computeIfAbsent(a.length, x -> new ArrayDeque<>()).addFirst(a);
            keptBytes += a.length;
          }
        }
      }
    }
  }

  /** Bytes held for reuse now. */
  synchronized long keptBytes() {
    return keptBytes;
  }
}
