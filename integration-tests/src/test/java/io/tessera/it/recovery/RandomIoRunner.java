package io.tessera.it.recovery;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import java.util.List;

/**
 * A {@link RandomIoModel} run in a thread of its own beside a scenario's writers: random small
 * writes, truncates and reads on files of three layouts until stopped, every read checked.
 */
final class RandomIoRunner {
  private final RandomIoModel model;
  private Thread thread;
  private volatile boolean stop;
  private volatile Throwable failure;

  RandomIoRunner(TesseraFileSystem fs, String dir, long seed) throws Exception {
    model = new RandomIoModel(fs, seed);
    fs.mkdirs(dir);
    model.add(dir + "/rs63-4k", CreateOptions.erasure(6, 3).stripeUnit(4 << 10));
    model.add(dir + "/rs42-64k", CreateOptions.erasure(4, 2).stripeUnit(64 << 10));
    model.add(dir + "/rs21-16k", CreateOptions.erasure(2, 1).stripeUnit(16 << 10));
    // log-structured: each write a writer of its own, each read a merge of their indexes
    model.add(dir + "/log42-64k", CreateOptions.erasure(4, 2).stripeUnit(64 << 10).log(true));
  }

  List<String> paths() {
    return model.files().stream().map(f -> f.path).toList();
  }

  void start() {
    stop = false;
    thread =
        new Thread(
            () -> {
              try {
                while (!stop) {
                  model.step();
                }
              } catch (Throwable t) {
                failure = t;
              }
            },
            "random-io");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Stops the operations and reads every file back; returns the bytes that differ from the model.
   *
   * @throws AssertionError when an operation failed for good or a read disagreed with the model
   */
  long stopAndCountLost() throws Exception {
    if (thread == null) {
      return 0;
    }
    stop = true;
    thread.join(180_000);
    thread = null;
    if (failure != null) {
      Throwable f = failure;
      failure = null;
      throw new AssertionError("random I/O failed: " + f.getMessage(), f);
    }
    return model.differingBytes();
  }

  long seed() {
    return model.seed();
  }
}
