package io.tessera.cli.fs;

import io.tessera.common.config.DataSize;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.Locale;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** Copies a stream with a progress bar on the terminal, then reports the rate. */
final class Transfer {
  private static final int CHUNK = 4 << 20;
  /** {@link #copy}'s total for a stream whose length is not known (standard input, a pipe). */
  static final long UNKNOWN_SIZE = -1;

  private Transfer() {}

  static long copy(String task, InputStream in, OutputStream out, long total, boolean quiet, PrintWriter report)
      throws IOException {
    long start = System.nanoTime();
    long copied = 0;
    byte[] buf = new byte[CHUNK];
    boolean large = total < 0 || total >= 1 << 20;
    ProgressBar bar = quiet ? null : new ProgressBarBuilder().setTaskName(task)
        .setInitialMax(total < 0 ? -1 : Math.max(total, 1))   // -1: the bar counts up without an end
        .setStyle(ProgressBarStyle.ASCII).setUnit(large ? "MiB" : "KiB", large ? 1 << 20 : 1 << 10)
        .showSpeed().setUpdateIntervalMillis(250)
        .continuousUpdate().build();
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
      double perSecond = copied / Math.max(secs, 1e-9);
      // a small file's rate in MB/s would print as 0.0
      String rate = perSecond >= 1e6 ? String.format(Locale.ROOT, "%.1f MB/s", perSecond / 1e6)
          : String.format(Locale.ROOT, "%.1f kB/s", perSecond / 1e3);
      report.printf(Locale.ROOT, "%s %s in %.2f s (%s)%n", task, DataSize.format(copied), secs, rate);
      report.flush();
    }
    return copied;
  }
}
