package io.tessera.common.platform;

import java.util.concurrent.ForkJoinPool;

/**
 * Keeps {@code CompletableFuture}'s async stages on pooled threads. The JDK sizes its common pool
 * at one thread less than the CPUs, and below two threads {@code CompletableFuture} gives up on the
 * pool and starts a new thread for every {@code ...Async} stage that names no executor. On a
 * machine with two CPUs that is every stage: Ratis appends each entry a follower receives through
 * such a stage, so every metadata change started a thread on two replicas (5,000 creates started
 * 5,006 and 4,876 threads in the two followers here).
 *
 * <p>The pool's size is read once, when the JVM first uses it, so {@link #ensureThreads()} must run
 * first thing in {@code main}; processes that cannot do that pass {@code -D}{@value
 * #PARALLELISM}{@code =2} to the JVM.
 */
public final class CommonPool {
  /** The JDK's system property for the common pool's size. */
  public static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

  /** The smallest common pool with which {@code CompletableFuture} uses it. */
  static final int MIN_THREADS = 2;

  private CommonPool() {}

  /**
   * Gives the common pool at least {@value #MIN_THREADS} threads unless the JVM was told a size.
   * Has no effect once the pool exists.
   */
  public static void ensureThreads() {
    if (System.getProperty(PARALLELISM) == null) {
      int jdkDefault = Runtime.getRuntime().availableProcessors() - 1;
      System.setProperty(PARALLELISM, String.valueOf(Math.max(MIN_THREADS, jdkDefault)));
    }
  }

  /** Whether {@code CompletableFuture}'s async stages run on the pool, not each on a new thread. */
  public static boolean pooled() {
    return ForkJoinPool.getCommonPoolParallelism() >= MIN_THREADS;
  }
}
