package io.tessera.cli.fs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The files of a tree put or get, several at once: a small file's copy is mostly round trips, so
 * copies overlap theirs. The first failure stops the copies not yet started; the others finish.
 */
final class ParallelCopies {
  /** One file's copy. */
  interface Copy {
    void run() throws IOException;
  }

  private ParallelCopies() {}

  /**
   * Runs every copy, {@code parallel} at once; returns how many finished. Throws the first failure
   * once the copies under way have ended.
   */
  static int runAll(List<Copy> copies, int parallel) throws IOException, InterruptedException {
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, parallel));
    AtomicBoolean failed = new AtomicBoolean();
    List<Future<Boolean>> runs = new ArrayList<>();
    try {
      for (Copy c : copies) {
        runs.add(
            pool.submit(
                () -> {
                  if (failed.get()) {
                    return false;
                  }
                  try {
                    c.run();
                    return true;
                  } catch (IOException | RuntimeException e) {
                    failed.set(true);
                    throw e;
                  }
                }));
      }
      int done = 0;
      Throwable first = null;
      for (Future<Boolean> r : runs) {
        try {
          done += r.get() ? 1 : 0;
        } catch (ExecutionException e) {
          first = first == null ? e.getCause() : first;
        }
      }
      if (first instanceof IOException io) {
        throw io;
      }
      if (first instanceof RuntimeException re) {
        throw re;
      }
      return done;
    } finally {
      pool.shutdownNow();
    }
  }
}
