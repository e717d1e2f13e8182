package io.tessera.it.recovery;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Random;

/**
 * fsx for Tessera files: random positional writes (1 byte to 300 KB), truncates that shrink and
 * grow, and reads, over several files with different layouts, each checked against an in-memory
 * copy of what the file must hold. Every operation is one an application would retry after a
 * transient failure (the same bytes to the same place, the same size), so a fault in the cluster
 * never makes the model uncertain: a failure that outlasts the retry limit fails the run.
 *
 * <p>One seed drives everything: the same seed replays the same operations.
 */
final class RandomIoModel {
  /** Largest write, as in the fsx runs that found the redundancy bug. */
  static final int MAX_WRITE = 300_000;

  /** Files stay below this size, so that a run's reads and checks stay cheap. */
  static final int MAX_SIZE = 3 << 20;

  private static final long RETRY_FOR_NANOS = 90_000_000_000L;
  private static final int RECENT = 12;

  /** One file under test and the bytes it must hold. */
  static final class ModelledFile {
    final String path;
    final CreateOptions layout;
    byte[] model = new byte[0];

    ModelledFile(String path, CreateOptions layout) {
      this.path = path;
      this.layout = layout;
    }
  }

  private final TesseraFileSystem fs;
  private final long seed;
  private final Random rnd;
  private final List<ModelledFile> files = new ArrayList<>();
  private final Deque<String> recent = new ArrayDeque<>();
  private long ops;
  private long retries;

  RandomIoModel(TesseraFileSystem fs, long seed) {
    this.fs = fs;
    this.seed = seed;
    this.rnd = new Random(seed);
  }

  /** Creates an empty file to exercise. */
  ModelledFile add(String path, CreateOptions layout) throws IOException {
    fs.createFile(path, layout).close();
    ModelledFile f = new ModelledFile(path, layout);
    files.add(f);
    return f;
  }

  List<ModelledFile> files() {
    return files;
  }

  long seed() {
    return seed;
  }

  long ops() {
    return ops;
  }

  /** Operations that failed at first and succeeded when tried again. */
  long retries() {
    return retries;
  }

  /** What a failure message carries: the seed to replay, and the last operations. */
  String replay() {
    return "seed "
        + seed
        + " (replay with -Dtessera.it.model-seed="
        + seed
        + "), "
        + ops
        + " operations, the last: "
        + String.join("; ", recent);
  }

  /** Runs one random operation on a random file; a read that disagrees with the model throws. */
  void step() throws IOException, InterruptedException {
    ModelledFile f = files.get(rnd.nextInt(files.size()));
    int kind = rnd.nextInt(20);
    if (kind < 10) {
      write(f);
    } else if (kind < 17) {
      read(f);
    } else {
      truncate(f);
    }
    ops++;
  }

  private void write(ModelledFile f) throws IOException, InterruptedException {
    int len = 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(MAX_WRITE) : rnd.nextInt(8192));
    int off = rnd.nextInt(Math.min(f.model.length + (256 << 10), MAX_SIZE - len) + 1);
    byte[] data = new byte[len];
    rnd.nextBytes(data);
    note(f, "write " + off + "+" + len);
    retrying(
        f,
        "write " + off + "+" + len,
        () -> {
          try (TesseraFile file = fs.openFile(f.path)) {
            file.write(off, data, 0, len);
          }
        });
    if (off + len > f.model.length) {
      f.model = Arrays.copyOf(f.model, off + len);
    }
    System.arraycopy(data, 0, f.model, off, len);
  }

  private void truncate(ModelledFile f) throws IOException, InterruptedException {
    // half shrink (to a random point inside), half grow (past the end, leaving a hole)
    int size =
        rnd.nextBoolean()
            ? rnd.nextInt(f.model.length + 1)
            : Math.min(MAX_SIZE, f.model.length + rnd.nextInt(MAX_WRITE));
    note(f, "truncate " + size);
    retrying(
        f,
        "truncate to " + size,
        () -> {
          try (TesseraFile file = fs.openFile(f.path)) {
            file.truncate(size);
          }
        });
    f.model = Arrays.copyOf(f.model, size);
  }

  private void read(ModelledFile f) throws IOException, InterruptedException {
    int off = rnd.nextInt(f.model.length + 4096);
    int len = 1 + rnd.nextInt(MAX_WRITE);
    note(f, "read " + off + "+" + len);
    byte[] got = new byte[len];
    int[] n = new int[1];
    retrying(
        f,
        "read " + off + "+" + len,
        () -> {
          try (TesseraFile file = fs.openFile(f.path)) {
            n[0] = file.read(off, got, 0, len);
          }
        });
    int expect = Math.min(len, f.model.length - off);
    if (n[0] != (expect <= 0 ? -1 : expect)) {
      throw new AssertionError(
          f.path
              + ": read "
              + off
              + "+"
              + len
              + " of a "
              + f.model.length
              + "-byte file gave "
              + n[0]
              + " bytes; "
              + replay());
    }
    if (expect > 0) {
      int at = Arrays.mismatch(got, 0, expect, f.model, off, off + expect);
      if (at >= 0) {
        throw new AssertionError(
            f.path
                + ": read "
                + off
                + "+"
                + len
                + " differs at file offset "
                + (off + at)
                + "; "
                + replay());
      }
    }
  }

  /** Reads every file whole and compares it with its model; returns the bytes that differ. */
  long differingBytes() throws IOException {
    long differ = 0;
    for (ModelledFile f : files) {
      try (TesseraFile file = fs.openFile(f.path)) {
        if (file.size() != f.model.length) {
          throw new AssertionError(
              f.path
                  + " is "
                  + file.size()
                  + " bytes, the model "
                  + f.model.length
                  + "; "
                  + replay());
        }
        byte[] got = new byte[f.model.length];
        file.readFully(0, got, 0, got.length);
        for (int i = 0; i < got.length; i++) {
          differ += got[i] == f.model[i] ? 0 : 1;
        }
      }
    }
    return differ;
  }

  private void note(ModelledFile f, String op) {
    if (recent.size() == RECENT) {
      recent.removeFirst();
    }
    recent.addLast(f.path + " " + op);
  }

  private interface Op {
    void run() throws IOException;
  }

  /**
   * Runs the operation, trying again after a failure until it succeeds or the retry limit passes.
   */
  private void retrying(ModelledFile f, String what, Op op)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + RETRY_FOR_NANOS;
    long pauseMs = 50;
    while (true) {
      try {
        op.run();
        return;
      } catch (IOException e) {
        if (System.nanoTime() - deadline > 0) {
          throw new IOException(
              f.path
                  + ": "
                  + what
                  + " still failing after "
                  + RETRY_FOR_NANOS / 1_000_000_000
                  + " s: "
                  + e.getMessage()
                  + "; "
                  + replay(),
              e);
        }
        retries++;
        Thread.sleep(pauseMs);
        pauseMs = Math.min(1000, pauseMs * 2);
      }
    }
  }
}
