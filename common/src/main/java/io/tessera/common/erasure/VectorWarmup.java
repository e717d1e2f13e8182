package io.tessera.common.erasure;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gets the Vector API loop compiled before real work relies on it. Until the JIT has compiled it,
 * Vector API code runs far slower than Backblaze's tables, so a daemon thread codes dummy stripes
 * until the loop runs at SIMD speed, and {@link AdaptiveCodingLoop} switches to it only then.
 */
final class VectorWarmup {
  private static final Logger LOG = LoggerFactory.getLogger(VectorWarmup.class);

  /**
   * Bytes of data per second above which the loop counts as compiled (Backblaze's tables: about
   * 1e9).
   */
  private static final double WARM_BYTES_PER_SECOND = 2e9;

  private static final long GIVE_UP_NANOS = 20_000_000_000L;
  private static volatile boolean warm;
  private static boolean started;

  private VectorWarmup() {}

  static boolean isWarm() {
    return warm;
  }

  /** Starts the warm-up thread once per JVM. */
  static synchronized void start() {
    if (started) {
      return;
    }
    started = true;
    Thread t = new Thread(VectorWarmup::run, "tessera-coding-warmup");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
  }

  private static void run() {
    int k = 6;
    int m = 3;
    int length = 64 << 10;
    byte[][] rows = new byte[m][k];
    byte[][] in = new byte[k][length];
    byte[][] out = new byte[m][length];
    for (int p = 0; p < m; p++) {
      for (int i = 0; i < k; i++) {
        rows[p][i] = (byte) (p * 31 + i * 7 + 1);
      }
    }
    int[] inOffsets = new int[k];
    int[] outOffsets = new int[m];
    long start = System.nanoTime();
    int fastRounds = 0;
    while (System.nanoTime() - start < GIVE_UP_NANOS) {
      long t = System.nanoTime();
      // one, two and three outputs: each width has a kernel of its own to compile (a reader
      // decoding one lost unit would otherwise run an uncompiled one at first)
      for (int outputs = 1; outputs <= m; outputs++) {
        VectorCodingLoop.code(rows, in, inOffsets, k, out, outOffsets, outputs, length);
      }
      double rate = (double) m * k * length / ((System.nanoTime() - t) / 1e9);
      fastRounds = rate >= WARM_BYTES_PER_SECOND ? fastRounds + 1 : 0;
      if (fastRounds >= 3) {
        warm = true;
        LOG.debug(
            "Vector API coding loop compiled after {} ms", (System.nanoTime() - start) / 1_000_000);
        return;
      }
    }
    LOG.info("The Vector API coding loop never reached SIMD speed; staying on Backblaze's tables");
  }
}
