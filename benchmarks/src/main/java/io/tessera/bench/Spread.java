package io.tessera.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/** N operations spread evenly over T threads, timed from the first start to the last end. */
final class Spread {
  private Spread() {}

  /** Operation {@code i} of thread {@code thread} (from 0 in each thread). */
  interface Op {
    void run(int thread, int i) throws Exception;
  }

  /** Runs {@code n} operations on {@code threads} threads of {@code pool}; seconds taken. */
  static double timed(ExecutorService pool, int threads, int n, Op op) throws Exception {
    long start = System.nanoTime();
    List<Future<?>> done = new ArrayList<>();
    int per = n / threads;
    for (int t = 0; t < threads; t++) {
      int thread = t;
      int count = t == threads - 1 ? n - per * (threads - 1) : per;
      done.add(
          pool.submit(
              () -> {
                for (int i = 0; i < count; i++) {
                  op.run(thread, i);
                }
                return null;
              }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
