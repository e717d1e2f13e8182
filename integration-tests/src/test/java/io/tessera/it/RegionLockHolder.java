package io.tessera.it;

import io.tessera.client.OpenOptions;
import io.tessera.client.RegionLock;
import io.tessera.client.Sharing;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.Config;
import io.tessera.common.status.TesseraException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

/**
 * A client process of the region-lock checker: until the stop file appears it takes the same
 * exclusive region over and over, holds it briefly and releases it, appending each grant ({@code G
 * nanos}) and release ({@code R nanos}, or {@code L nanos} if the lock was no longer valid) to its
 * events file, stamped with System.nanoTime (CLOCK_MONOTONIC: one clock for every process here).
 *
 * <p>Arguments: meta addresses, path, events file, stop file.
 */
public final class RegionLockHolder {
  private RegionLockHolder() {}

  public static void main(String[] args) throws Exception {
    Path events = Path.of(args[2]);
    Path stop = Path.of(args[3]);
    try (TesseraFileSystem fs =
            TesseraFileSystem.connect(Config.of(Map.of("tessera.client.meta", args[0])));
        TesseraFile f =
            fs.openFile(args[1], OpenOptions.write().sharing(Sharing.DISJOINT_WRITERS));
        PrintWriter log =
            new PrintWriter(
                Files.newBufferedWriter(
                    events,
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND))) {
      while (!Files.exists(stop)) {
        RegionLock l;
        try {
          l = f.lock(0, 4096, false, Duration.ofSeconds(30));
        } catch (TesseraException e) {
          log.println("T " + System.nanoTime() + " " + e.getMessage());
          log.flush();
          continue;
        }
        log.println("G " + System.nanoTime());
        log.flush();
        Thread.sleep(15); // the work done under the lock
        boolean valid = l.isValid();
        log.println((valid ? "R " : "L ") + System.nanoTime());
        log.flush();
        l.release();
      }
    }
  }
}
