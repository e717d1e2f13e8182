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
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Copies a stream with a progress bar while standard error is a terminal (nothing is redrawn into a
 * log or a pipe), then reports the size and the rate. Rates are in MB/s (10^6 bytes a second)
 * wherever Tessera prints one; sizes in binary units (MiB).
 */
final class Transfer {
  private static final int CHUNK = 4 << 20;

  /** {@link #copy}'s total for a stream whose length is not known (standard input, a pipe). */
  static final long UNKNOWN_SIZE = -1;

  private Transfer() {}

  static long copy(
      String task, InputStream in, OutputStream out, long total, boolean quiet, PrintWriter report)
      throws IOException {
    long start = System.nanoTime();
    long copied = 0;
    byte[] buf = new byte[CHUNK];
    ProgressBar bar =
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
    try {
      int n;
      while ((n = in.readNBytes(buf, 0, buf.length)) > 0) {
        out.write(buf, 0, n);
        copied += n;
        if (bar != null) {
          bar.stepTo(copied);
        }
      }
      out.close();
    } finally {
      if (bar != null) {
        bar.close();
      }
    }
    double secs = (System.nanoTime() - start) / 1e9;
    if (!quiet) {
      double mbPerS = copied / Math.max(secs, 1e-9) / 1e6;
      // a small file's rate keeps its first figures
      String rate =
          String.format(
              Locale.ROOT, mbPerS >= 10 ? "%.1f" : mbPerS >= 0.1 ? "%.2f" : "%.4f", mbPerS);
      report.printf(
          Locale.ROOT, "%s %s in %.2f s (%s MB/s)%n", task, DataSize.format(copied), secs, rate);
      report.flush();
    }
    return copied;
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
