package io.tessera.it.recovery;

import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.internal.ParityWriter;
import io.tessera.common.config.Config;
import io.tessera.common.fault.FaultPoints;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A client process for the scenarios that kill a writer: it writes one range of a file and stops at
 * a fault-injection point, between the write phases or half-way through phase 2, printing {@code
 * PAUSED} so the test can SIGKILL it there, or (a seventh argument, {@code resume}) cut it off the
 * network and let it go on when a line arrives on its input; it then prints {@code WRITTEN} or
 * {@code FAILED: why} and exits.
 *
 * <p>Arguments: meta addresses, path, offset, length, seed, {@code between} or {@code mid-phase-2}
 * [, {@code resume}].
 */
public final class CrashingWriter {
  private CrashingWriter() {}

  public static void main(String[] args) throws Exception {
    Config config =
        Config.of(Map.of("tessera.client.meta", args[0], "tessera.client.lock-lease", "3s"));
    long offset = Long.parseLong(args[2]);
    int length = Integer.parseInt(args[3]);
    byte[] data = new byte[length];
    new Random(Long.parseLong(args[4])).nextBytes(data);
    boolean resume = args.length > 6 && args[6].equals("resume");
    AtomicBoolean pausedOnce = new AtomicBoolean();
    Runnable pause =
        () -> {
          if (resume && pausedOnce.getAndSet(true)) {
            return; // let go: its retry passes the same point again
          }
          System.out.println("PAUSED");
          System.out.flush();
          try {
            if (resume) {
              new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
                  .readLine();
            } else {
              Thread.sleep(Long.MAX_VALUE);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        };
    try (TesseraFileSystem fs = TesseraFileSystem.connect(config);
        TesseraFile f = fs.openFile(args[1])) {
      if (args[5].equals("between")) {
        FaultPoints.arm(ParityWriter.BETWEEN_PHASES, fs.async(), pause);
      } else {
        FaultPoints.arm(ParityWriter.MID_PHASE2, fs.async(), pause);
      }
      f.write(offset, data, 0, length);
      System.out.println("WRITTEN");
    } catch (IOException e) {
      System.out.println("FAILED: " + e.getMessage());
      System.exit(1);
    }
  }
}
