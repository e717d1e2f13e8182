package io.tessera.bench;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;

/**
 * Verifiable data without storing it: a random block per client, with the absolute file offset
 * stamped into the first 8 bytes of every 4 KiB page, so a misplaced page is caught.
 */
final class Pattern {
  private static final int PAGE = 4096;
  private final byte[] base;

  Pattern(long seed, int size) {
    base = new byte[size];
    new Random(seed).nextBytes(base);
  }

  void fill(byte[] buf, int len, long fileOffset) {
    System.arraycopy(base, 0, buf, 0, len);
    ByteBuffer b = ByteBuffer.wrap(buf);
    for (int p = 0; p + 8 <= len; p += PAGE) {
      b.putLong(p, fileOffset + p);
    }
  }

  /** The offset of the first wrong byte, or -1. */
  long firstMismatch(byte[] got, int len, long fileOffset, byte[] scratch) {
    fill(scratch, len, fileOffset);
    int i = Arrays.mismatch(got, 0, len, scratch, 0, len);
    return i < 0 ? -1 : fileOffset + i;
  }
}
