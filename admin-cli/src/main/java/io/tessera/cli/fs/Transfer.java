package io.tessera.cli.fs;

import io.tessera.common.config.DataSize;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The bytes of one put or get, of one file or of a whole tree: a progress bar while standard error
 * is a terminal (nothing is redrawn into a log or a pipe), then the size and the rate. Rates are in
 * MB/s (10^6 bytes a second) wherever Tessera prints one; sizes in binary units (MiB). Copies may
 * run on several threads at once.
 */
final class Transfer implements AutoCloseable {
  private static final int CHUNK = 4 << 20;

  /** A total for a stream whose length is not known (standard input, a pipe). */
  static final long UNKNOWN_SIZE = -1;

  private final String task;
  private final boolean quiet;
  private final PrintWriter report;
  private final ProgressBar bar;
  private final long start = System.nanoTime();
  private final AtomicLong copied = new AtomicLong();
  private boolean closed;

  private Transfer(String task, long total, boolean quiet, PrintWriter report) {
    this.task = task;
    this.quiet = quiet;
    this.report = report;
    this.bar =
        quiet || !stderrIsTerminal()
            ? null
            : new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(
                    total < 0 ? -1 : Math.max(total, 1)) // -1: the bar counts up without an end
                .setStyle(ProgressBarStyle.ASCII)
                .setUnit("MB", 1_000_000)
                .showSpeed(new DecimalFormat("0.0"))
                .setUpdateIntervalMillis(250)
                .continuousUpdate()
                .build();
  }

  /** Starts counting {@code total} bytes (or {@link #UNKNOWN_SIZE}) under the name {@code task}. */
  static Transfer start(String task, long total, boolean quiet, PrintWriter report) {
    return new Transfer(task, total, quiet, report);
  }

  /** One stream, whole: copies it, closes {@code out}, then reports the size and the rate. */
  static long copy(
      String task, InputStream in, OutputStream out, long total, boolean quiet, PrintWriter report)
      throws IOException {
    try (Transfer t = start(task, total, quiet, report)) {
      long n = t.copy(in, out);
      t.finish("");
      return n;
    }
  }

  /** Copies {@code in} to its end into {@code out} and closes {@code out}; returns the bytes. */
  long copy(InputStream in, OutputStream out) throws IOException {
    long n = 0;
    byte[] buf = new byte[CHUNK];
    int read;
    while ((read = in.readNBytes(buf, 0, buf.length)) > 0) {
      out.write(buf, 0, read);
      n += read;
      long all = copied.addAndGet(read);
      if (bar != null) {
        bar.stepTo(all);
      }
    }
    out.close();
    return n;
  }

  /** Prints "TASK SIZE in T s (R MB/s)", then {@code what} (": N files, ..." of a tree). */
  void finish(String what) {
    close();
    if (quiet) {
      return;
    }
    double secs = (System.nanoTime() - start) / 1e9;
    long bytes = copied.get();
    double mbPerS = bytes / Math.max(secs, 1e-9) / 1e6;
    // a small file's rate keeps its first figures
    String rate =
        String.format(Locale.ROOT, mbPerS >= 10 ? "%.1f" : mbPerS >= 0.1 ? "%.2f" : "%.4f", mbPerS);
    report.printf(
        Locale.ROOT,
        "%s %s%s in %.2f s (%s MB/s)%n",
        task,
        DataSize.format(bytes),
        what,
        secs,
        rate);
    report.flush();
  }

  @Override
  public synchronized void close() {
    if (bar != null && !closed) {
      bar.close();
    }
    closed = true;
  }

  /** Whether standard error is a terminal (Linux: what /proc says file descriptor 2 is). */
  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/")
          || target.startsWith("/dev/tty")
          || target.equals("/dev/console");
    } catch (IOException | UnsupportedOperationException e) {
      return System.console() != null;
    }
  }
}
