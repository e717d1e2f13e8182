package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.ClientConfigKeys;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.QosStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One measured run of {@code tessera bench qos}: applications' workloads at once, each from a
 * client of its own, and what the schedulers served them, read from their own counters.
 */
final class QosRun {
  private final ClusterOptions cluster;
  private final int seconds;
  private final PrintWriter out;

  QosRun(ClusterOptions cluster, int seconds, PrintWriter out) {
    this.cluster = cluster;
    this.seconds = seconds;
    this.out = out;
  }

  /** Runs the workloads at once; the proxies' counters over the middle of the run. */
  QosStatus together(QosWorkload... workloads) throws Exception {
    List<Thread> running = new ArrayList<>();
    List<TesseraFileSystem> clients = new ArrayList<>();
    AtomicBoolean failed = new AtomicBoolean();
    long deadline = deadline(seconds);
    try {
      for (QosWorkload w : workloads) {
        TesseraFileSystem fs =
            cluster.connect(Map.of(ClientConfigKeys.Cluster.APP_ID.key(), w.app));
        clients.add(fs);
        Thread t =
            new Thread(
                () -> {
                  try {
                    w.run(fs, new AtomicLong(), deadline);
                  } catch (Exception e) {
                    failed.set(true);
                    out.println("  " + w.app + " failed: " + e.getMessage());
                  }
                },
                "bench-" + w.app);
        t.start();
        running.add(t);
      }
      Thread.sleep(1000); // warm-up: queues fill
      QosStatus s;
      try (TesseraFileSystem admin = cluster.connect()) {
        s = admin.admin().qos().status(Duration.ofSeconds(seconds - 2));
      }
      for (Thread t : running) {
        t.join();
      }
      if (failed.get()) {
        throw new IOException("a workload failed (see above)");
      }
      return s;
    } finally {
      for (TesseraFileSystem fs : clients) {
        fs.close();
      }
    }
  }

  static long deadline(int seconds) {
    return System.nanoTime() + seconds * 1_000_000_000L;
  }

  /** The ratio of two applications' service (what the proxies share out, not bytes alone). */
  static double ratio(QosStatus s, String a, String b) {
    return share(s, a) / Math.max(1e-9, share(s, b));
  }

  private static double share(QosStatus s, String app) {
    return s.apps().stream()
        .filter(x -> x.settings().app().equals(app))
        .mapToDouble(QosStatus.App::achievedShare)
        .findFirst()
        .orElse(0);
  }

  static double rate(QosStatus s, String app) {
    return s.apps().stream()
        .filter(x -> x.settings().app().equals(app))
        .mapToDouble(QosStatus.App::bytesPerSecond)
        .findFirst()
        .orElse(0);
  }
}
