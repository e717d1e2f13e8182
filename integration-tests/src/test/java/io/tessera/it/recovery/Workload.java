package io.tessera.it.recovery;

import io.tessera.bench.SteadyState;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writers of random ranges of RS 6+3 files, each file owned by one writer, with an in-memory model
 * of every acknowledged byte. A write that fails may have landed or not: its range may then hold
 * the old or the new bytes, nothing else. {@link #verify} reads every file back and counts
 * acknowledged bytes that differ: the bytes lost.
 */
final class Workload implements AutoCloseable {
  static final int UNIT = 64 << 10;

  /**
   * Each file's size: small files whose every stripe the writers touch each second, the case where
   * recovery yields to writers most (its lock share under load), at the suite's time cost.
   */
  static final int FILE_SIZE = 3 << 20;

  private static final int WRITERS = 2;

  private final TesseraFileSystem fs;
  private final List<String> paths = new ArrayList<>();
  private final List<byte[]> model = new ArrayList<>();

  /** Ranges of failed writes: {file index, offset, old bytes, new bytes}. */
  private final ConcurrentLinkedQueue<Object[]> uncertain = new ConcurrentLinkedQueue<>();

  private final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
  private final AtomicLong ackedBytes = new AtomicLong();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final List<Thread> threads = new ArrayList<>();
  private final List<long[]> samples = new ArrayList<>(); // {nanos, acked bytes}
  private Thread sampler;

  Workload(TesseraFileSystem fs, String dir, int files, long seed) throws Exception {
    this(fs, dir, files, seed, CreateOptions.erasure(6, 3).stripeUnit(UNIT));
  }

  /** {@code files} files of {@code layout} in {@code dir}, their contents from {@code seed}. */
  Workload(TesseraFileSystem fs, String dir, int files, long seed, CreateOptions layout)
      throws Exception {
    this.fs = fs;
    fs.mkdirs(dir, layout);
    Random r = new Random(seed);
    for (int i = 0; i < files; i++) {
      String path = dir + "/f" + i;
      byte[] content = new byte[FILE_SIZE];
      r.nextBytes(content);
      try (TesseraFile f = fs.createFile(path, layout)) {
        f.write(0, content, 0, content.length);
      }
      paths.add(path);
      model.add(content);
    }
  }

  List<String> paths() {
    return paths;
  }

  void start(long seed) {
    stop.set(false);
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      Thread t = new Thread(() -> run(writer, new Random(seed * 31 + writer)), "workload-" + w);
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
    sampler =
        new Thread(
            () -> {
              while (!stop.get()) {
                synchronized (samples) {
                  samples.add(new long[] {System.nanoTime(), ackedBytes.get()});
                }
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "workload-sampler");
    sampler.setDaemon(true);
    sampler.start();
  }

  private void run(int writer, Random r) {
    while (!stop.get()) {
      int file = writer + WRITERS * r.nextInt(paths.size() / WRITERS);
      int len = (16 << 10) + r.nextInt(496 << 10);
      int off = r.nextInt(FILE_SIZE - len);
      byte[] data = new byte[len];
      r.nextBytes(data);
      byte[] old = Arrays.copyOfRange(model.get(file), off, off + len);
      try (TesseraFile f = fs.openFile(paths.get(file))) {
        f.write(off, data, 0, len);
        System.arraycopy(data, 0, model.get(file), off, len);
        ackedBytes.addAndGet(len);
      } catch (Exception e) {
        uncertain.add(new Object[] {file, off, old, data});
        errors.add(String.valueOf(e.getMessage()));
        try {
          Thread.sleep(50);
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
  }

  /** Stops the writers and waits for them. */
  void stopWriters() throws InterruptedException {
    stop.set(true);
    for (Thread t : threads) {
      t.join(120_000);
    }
    threads.clear();
    if (sampler != null) {
      sampler.join(5_000);
    }
  }

  /**
   * Runs the writers, untimed, until a 3 s window's rate is within 10 % of the window before (at
   * most 60 s), then checks what they wrote. A suite just started would otherwise measure the
   * client and the servers compiling their paths. Returns the rates (MB/s) of the windows it ran.
   */
  List<Double> warmUp() throws Exception {
    SteadyState steady = new SteadyState(20, 0.10);
    start(-1);
    long[] from = {System.nanoTime()};
    steady.warmUp(
        () -> {
          Thread.sleep(3000);
          long now = System.nanoTime();
          double mbPerS = rate(from[0], now) / 1e6;
          from[0] = now;
          return mbPerS;
        });
    stopWriters();
    long lost = verify();
    if (lost != 0) {
      throw new AssertionError(
          "the warm-up lost " + lost + " acknowledged bytes on a healthy cluster");
    }
    return steady.rates();
  }

  /**
   * Acknowledged bytes per second in each {@code stepNanos} slice from {@code fromNanos} up to
   * {@code toNanos}.
   */
  List<Double> rates(long fromNanos, long toNanos, long stepNanos) {
    List<Double> rates = new ArrayList<>();
    for (long t = fromNanos; t + stepNanos <= toNanos; t += stepNanos) {
      rates.add(rate(t, t + stepNanos));
    }
    return rates;
  }

  /** Acknowledged bytes per second between two instants (System.nanoTime). */
  double rate(long fromNanos, long toNanos) {
    synchronized (samples) {
      long[] a = at(fromNanos);
      long[] b = at(toNanos);
      if (a == null || b == null || b[0] <= a[0]) {
        return Double.NaN;
      }
      return (b[1] - a[1]) / ((b[0] - a[0]) / 1e9);
    }
  }

  /**
   * The longest time between {@code fromNanos} and {@code toNanos} in which no write was
   * acknowledged, in milliseconds (to the sampling interval of 100 ms).
   */
  long longestStallMillis(long fromNanos, long toNanos) {
    synchronized (samples) {
      long longest = 0;
      long since = -1;
      long lastBytes = -1;
      for (long[] s : samples) {
        if (s[0] < fromNanos || s[0] > toNanos) {
          continue;
        }
        if (s[1] != lastBytes) {
          since = s[0];
          lastBytes = s[1];
        }
        longest = Math.max(longest, s[0] - since);
      }
      return longest / 1_000_000;
    }
  }

  private long[] at(long nanos) {
    long[] best = null;
    for (long[] s : samples) {
      if (best == null || Math.abs(s[0] - nanos) < Math.abs(best[0] - nanos)) {
        best = s;
      }
    }
    return best;
  }

  List<String> errors() {
    return List.copyOf(errors);
  }

  void clearErrors() {
    errors.clear();
  }

  /**
   * Reads every file back; returns how many acknowledged bytes differ from what was acknowledged.
   */
  long verify() throws Exception {
    long lost = 0;
    for (int i = 0; i < paths.size(); i++) {
      byte[] got = new byte[FILE_SIZE];
      try (TesseraFile f = fs.openFile(paths.get(i))) {
        f.readFully(0, got, 0, FILE_SIZE);
      }
      byte[] want = model.get(i);
      boolean[] either = new boolean[FILE_SIZE];
      List<Object[]> mine = new ArrayList<>();
      for (Object[] u : uncertain) {
        if ((int) u[0] == i) {
          mine.add(u);
          int off = (int) u[1];
          for (int j = 0; j < ((byte[]) u[2]).length; j++) {
            either[off + j] = true;
          }
        }
      }
      for (int b = 0; b < FILE_SIZE; b++) {
        if (got[b] == want[b]) {
          continue;
        }
        if (either[b] && matchesAnyUncertain(mine, b, got[b])) {
          want[b] = got[b]; // a failed write that landed: its bytes are what the file holds now
          continue;
        }
        lost++;
      }
    }
    uncertain.clear();
    return lost;
  }

  private static boolean matchesAnyUncertain(List<Object[]> ranges, int at, byte value) {
    for (Object[] u : ranges) {
      int off = (int) u[1];
      byte[] old = (byte[]) u[2];
      byte[] neu = (byte[]) u[3];
      if (at >= off
          && at < off + old.length
          && (old[at - off] == value || neu[at - off] == value)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() throws InterruptedException {
    stopWriters();
  }
}
