package io.tessera.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The machine's dirty page cache: how much written data the kernel has yet to write back, and a way
 * to flush it before a timed read (write-back competes with the read for the disk and for CPU).
 */
final class DirtyPages {
  private DirtyPages() {}

  /** Dirty plus under write-back, in bytes, from /proc/meminfo; -1 where there is none. */
  static long bytes() {
    try {
      long kib = 0;
      for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("Dirty:") || line.startsWith("Writeback:")) {
          kib += Long.parseLong(line.replaceAll("[^0-9]", ""));
        }
      }
      return kib * 1024;
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  /** Writes every dirty page back (the sync command), waiting for it. */
  static void sync() throws IOException, InterruptedException {
    new ProcessBuilder("sync").inheritIO().start().waitFor();
  }

  /** Runs sync and says, for the run's line, how much was dirty and how long the flush took. */
  static String flush() {
    long dirty = bytes();
    long start = System.nanoTime();
    try {
      sync();
    } catch (IOException e) {
      return " (sync before reading failed: " + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return " (sync before reading interrupted)";
    }
    return String.format(
        Locale.ROOT,
        " (synced before reading: %s dirty, %.1f s)",
        dirty < 0 ? "unknown" : (dirty >> 20) + " MiB",
        (System.nanoTime() - start) / 1e9);
  }
}
