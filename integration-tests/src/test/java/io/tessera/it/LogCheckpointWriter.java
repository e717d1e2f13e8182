package io.tessera.it;

import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.Config;
import java.util.Map;

/**
 * A checkpointing process for {@link LogFileProcessTest}: it writes records {@code 0..synced-1} of
 * a log file and syncs, prints {@code SYNCED}, writes records {@code synced..total-1} without
 * syncing, prints {@code WRITTEN} and waits to be killed.
 *
 * <p>Arguments: meta addresses, path, synced, total.
 */
public final class LogCheckpointWriter {
  private LogCheckpointWriter() {}

  public static void main(String[] args) throws Exception {
    int synced = Integer.parseInt(args[2]);
    int total = Integer.parseInt(args[3]);
    try (TesseraFileSystem fs =
        TesseraFileSystem.connect(Config.of(Map.of("tessera.client.meta", args[0])))) {
      TesseraFile f = fs.openFile(args[1]);
      for (int i = 0; i < total; i++) {
        if (i == synced) {
          f.sync();
          System.out.println("SYNCED");
          System.out.flush();
        }
        f.write(
            (long) i * StridedRecords.RECORD,
            StridedRecords.record(0, i),
            0,
            StridedRecords.RECORD);
      }
      System.out.println("WRITTEN");
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }
}
