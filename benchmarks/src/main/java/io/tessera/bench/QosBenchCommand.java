package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.ClientConfigKeys;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.QosApp;
import io.tessera.client.admin.QosStatus;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench qos}: the vPFS experiments on a cluster started with {@code tessera local
 * --qos}. Shares are ratios within one run, read from the proxies' own counters.
 */
@Command(
    name = "qos",
    mixinStandardHelpOptions = true,
    description = {
      "QoS experiments on a cluster started with 'tessera local --qos'.",
      "ratios: app A (random 4-64 KiB reads and writes, files over 4 servers) next to app B"
          + " (sequential 1 MiB writes, files over 8 servers) at weights 1:1, 1:2, 1:4, 3:1; reports"
          + " achieved total-service ratio over target.",
      "writers: two apps of --threads sequential 1 MiB writers each, files over 8 servers, at"
          + " weights 1:3 and 3:1; reports each app's share against its target (run it with storage"
          + " the bottleneck: tessera.data.test-device-cap).",
      "bursty: an app alternating compute pauses and bursts of large writes next to an aggressive"
          + " writer; its burst throughput alone, with plain SFQ, and not work conserving.",
      "limits: an app limited to 50 MB/s alone, and one reserved 30 MB/s next to an aggressive one.",
      "overhead: one app writing and reading through the proxies, then directly.",
      "Each case runs --runs times; the median and the spread are printed."
    })
public final class QosBenchCommand implements Callable<Integer> {
  private static final String A = "bench-a";
  private static final String B = "bench-b";

  /** Files over all eight servers, a 1 MiB write touching each of them. */
  private static final CreateOptions WIDE = CreateOptions.striped(8).stripeUnit(128 << 10);

  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(
      names = "--experiment",
      defaultValue = "all",
      description = "ratios, writers, bursty, limits, overhead or all (default ${DEFAULT-VALUE})")
  String experiment;

  @Option(
      names = "--seconds",
      defaultValue = "15",
      description = "length of each measured run (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--runs",
      defaultValue = "3",
      description = "runs of each case (default ${DEFAULT-VALUE})")
  int runs;

  @Option(
      names = "--threads",
      defaultValue = "16",
      description = "threads per application (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--bursty-weight",
      paramLabel = "W",
      defaultValue = "1",
      description =
          "weight of the bursty application A against the steady B's 1 in --experiment bursty"
              + " (default ${DEFAULT-VALUE}; A's burst next to B gets about weight / (weight + 1) of"
              + " what the servers move)")
  double burstyWeight;

  private PrintWriter out;
  private QosRun measure;

  @Override
  public Integer call() throws Exception {
    out = spec.commandLine().getOut();
    measure = new QosRun(cluster, seconds, out);
    if (seconds < 3 || runs < 1 || threads < 1 || !(burstyWeight > 0)) {
      throw new IllegalArgumentException(
          "--seconds at least 3, --runs and --threads at least 1, --bursty-weight above 0");
    }
    if (!List.of("ratios", "writers", "bursty", "limits", "overhead", "all").contains(experiment)) {
      throw new IllegalArgumentException(
          "--experiment " + experiment + ": ratios, writers, bursty, limits, overhead or all");
    }
    try (TesseraFileSystem admin = cluster.connect()) {
      if (admin.admin().status().dataServers().stream().allMatch(d -> d.proxyAddress().isEmpty())) {
        throw new IllegalArgumentException(
            "this cluster schedules nothing: start it with tessera local --qos, or with"
                + " -Dtessera.qos.placement=embedded");
      }
      admin.mkdirs("/bench-qos");
      switch (experiment) {
        case "ratios" -> ratios(admin);
        case "writers" -> writers(admin);
        case "bursty" -> bursty(admin);
        case "limits" -> limits(admin);
        case "overhead" -> overhead();
        case "all" -> {
          ratios(admin);
          writers(admin);
          bursty(admin);
          limits(admin);
          overhead();
        }
        default -> throw new IllegalStateException("checked above: " + experiment);
      }
      admin.admin().qos().reset(A);
      admin.admin().qos().reset(B);
    }
    return 0;
  }

  /** Waits until every proxy applies the settings just set (they follow the meta group). */
  private static void settled(TesseraFileSystem admin) throws Exception {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (!admin.admin().qos().status(Duration.ofMillis(100)).settingsEverywhere()) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the proxies did not take the new settings within 20 s");
      }
    }
  }

  /** vPFS Figure 2: achieved over target total-service ratio at four weight pairs. */
  private void ratios(TesseraFileSystem admin) throws Exception {
    out.printf(
        Locale.ROOT,
        "ratios: A random 4-64 KiB on 4 servers (%d threads), B sequential 1 MiB writes on 8 (%d)%n",
        4 * threads,
        threads);
    double[][] weights = {{1, 1}, {1, 2}, {1, 4}, {3, 1}};
    for (double[] w : weights) {
      admin.admin().qos().set(new QosApp(A, w[0], 0, 0, true));
      admin.admin().qos().set(new QosApp(B, w[1], 0, 0, true));
      settled(admin);
      List<Double> achieved = new ArrayList<>();
      for (int run = 0; run < runs; run++) {
        // B's every write reaches all 8 servers, A's request one of its 4: with four times B's
        // threads, A keeps as many requests waiting at each server it uses as B does, so the
        // shares measure the scheduler and not how many requests A has in the air
        QosStatus s =
            measure.together(
                new QosWorkload(A, CreateOptions.striped(4), true, 4 * threads),
                new QosWorkload(B, WIDE, false, threads));
        achieved.add(QosRun.ratio(s, A, B) / (w[0] / w[1]));
      }
      out.printf(
          Locale.ROOT,
          "  weights A:B = %s:%s  achieved/target %s%n",
          fmt(w[0]),
          fmt(w[1]),
          spread(achieved));
      out.flush();
    }
  }

  /**
   * Two alike applications of sequential writers: each one's share against its weight's, with both
   * work conserving (weights divide only what waits) and with both keeping their share of the
   * request slots (a writer's gap between two writes then leaves its slots idle, not to the other).
   */
  private void writers(TesseraFileSystem admin) throws Exception {
    out.printf(
        Locale.ROOT, "writers: A and B, %d sequential 1 MiB writers each, on 8 servers%n", threads);
    // a cluster just started writes its first gigabytes slower: one untimed run at 1:1 first
    admin.admin().qos().set(new QosApp(A, 1, 0, 0, true));
    admin.admin().qos().set(new QosApp(B, 1, 0, 0, true));
    settled(admin);
    measure.together(
        new QosWorkload(A, WIDE, false, threads), new QosWorkload(B, WIDE, false, threads));
    double[][] weights = {{1, 3}, {3, 1}};
    for (boolean workConserving : new boolean[] {true, false}) {
      for (double[] w : weights) {
        admin.admin().qos().set(new QosApp(A, w[0], 0, 0, workConserving));
        admin.admin().qos().set(new QosApp(B, w[1], 0, 0, workConserving));
        settled(admin);
        double target = w[0] / (w[0] + w[1]);
        List<Double> shareA = new ArrayList<>();
        List<Double> mbs = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
          QosStatus s =
              measure.together(
                  new QosWorkload(A, WIDE, false, threads),
                  new QosWorkload(B, WIDE, false, threads));
          double ratio = QosRun.ratio(s, A, B);
          shareA.add(ratio / (1 + ratio));
          mbs.add((QosRun.rate(s, A) + QosRun.rate(s, B)) / 1e6);
        }
        out.printf(
            Locale.ROOT,
            "  %s, weights A:B = %s:%s  A's share %s (target %.3f), both MB/s %s%n",
            workConserving ? "work conserving" : "not work conserving",
            fmt(w[0]),
            fmt(w[1]),
            spread(shareA),
            target,
            spread(mbs));
        out.flush();
      }
    }
  }

  /**
   * vPFS Figure 3: app A computes (a pause), then writes a burst from several threads, again and
   * again; app B writes sequentially from many threads all the time. A's throughput while it
   * bursts: alone, next to B under plain SFQ, and next to B with A not work conserving.
   */
  private void bursty(TesseraFileSystem admin) throws Exception {
    admin.admin().qos().set(new QosApp(A, burstyWeight, 0, 0, true));
    admin.admin().qos().set(new QosApp(B, 1, 0, 0, true));
    settled(admin);
    List<Double> alone = new ArrayList<>();
    List<Double> sfq = new ArrayList<>();
    List<Double> reserved = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      alone.add(burstRate(false));
      admin.admin().qos().set(new QosApp(A, burstyWeight, 0, 0, true));
      settled(admin);
      sfq.add(burstRate(true));
      admin.admin().qos().set(new QosApp(A, burstyWeight, 0, 0, false));
      settled(admin);
      reserved.add(burstRate(true));
    }
    out.printf(
        Locale.ROOT,
        "bursty, weights A:B = %s:1: A's MB/s while bursting: alone %s, next to B with SFQ %s, not"
            + " work conserving %s%n",
        fmt(burstyWeight),
        spread(alone),
        spread(sfq),
        spread(reserved));
    out.flush();
  }

  /** A's bytes per second of burst time, with B writing meanwhile or not. */
  private double burstRate(boolean withAggressive) throws Exception {
    AtomicBoolean stop = new AtomicBoolean();
    Thread aggressive = null;
    TesseraFileSystem bfs = null;
    if (withAggressive) {
      TesseraFileSystem b = cluster.connect(Map.of(ClientConfigKeys.Cluster.APP_ID.key(), B));
      bfs = b;
      QosWorkload w = new QosWorkload(B, WIDE, false, threads);
      aggressive =
          new Thread(
              () -> {
                try {
                  w.run(b, new AtomicLong(), QosRun.deadline(seconds + 5), 2 * threads, stop);
                } catch (Exception e) {
                  out.println("  " + B + " failed: " + e.getMessage());
                }
              });
      aggressive.start();
      Thread.sleep(1000);
    }
    try (TesseraFileSystem a = cluster.connect(Map.of(ClientConfigKeys.Cluster.APP_ID.key(), A))) {
      long burstNanos = 0;
      long bytes = 0;
      long end = QosRun.deadline(seconds);
      byte[] buf = new byte[1 << 20];
      while (System.nanoTime() < end) {
        Thread.sleep(500); // compute phase
        long started = System.nanoTime();
        List<Thread> writers = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
          String path = "/bench-qos/burst-" + i;
          Thread t =
              new Thread(
                  () -> {
                    try (TesseraFile f = a.createFile(path, WIDE.overwrite(true))) {
                      for (int m = 0; m < 8; m++) {
                        f.write((long) m * buf.length, buf, 0, buf.length);
                      }
                    } catch (IOException e) {
                      throw new IllegalStateException(e);
                    }
                  });
          t.start();
          writers.add(t);
        }
        for (Thread t : writers) {
          t.join();
        }
        burstNanos += System.nanoTime() - started;
        bytes += 4L * 8 * buf.length;
      }
      return bytes * 1e3 / (burstNanos / 1e6) / 1e6;
    } finally {
      stop.set(true);
      if (aggressive != null) {
        aggressive.join();
      }
      if (bfs != null) {
        bfs.close();
      }
    }
  }

  /** mClock: a limit alone on an idle cluster, and a reservation next to an aggressive app. */
  private void limits(TesseraFileSystem admin) throws Exception {
    admin.admin().qos().set(new QosApp(A, 1, 0, 50_000_000, true));
    settled(admin);
    List<Double> limited = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      QosStatus s = measure.together(new QosWorkload(A, WIDE, false, threads));
      limited.add(QosRun.rate(s, A) / 50e6);
    }
    out.printf(Locale.ROOT, "limits: A limited to 50 MB/s alone: rate/limit %s%n", spread(limited));
    admin.admin().qos().set(new QosApp(A, 1, 30_000_000, 0, true));
    admin.admin().qos().set(new QosApp(B, 100, 0, 0, true));
    settled(admin);
    List<Double> reserved = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      QosStatus s =
          measure.together(
              new QosWorkload(A, WIDE, false, threads), new QosWorkload(B, WIDE, false, threads));
      reserved.add(QosRun.rate(s, A) / 30e6);
    }
    out.printf(
        Locale.ROOT,
        "limits: A reserved 30 MB/s next to B at weight 100: rate/reservation %s%n",
        spread(reserved));
    out.flush();
  }

  /** One application alone, through the proxies and directly, alternating. */
  private void overhead() throws Exception {
    List<Double> viaProxy = new ArrayList<>();
    List<Double> direct = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      viaProxy.add(writeRate(true));
      direct.add(writeRate(false));
    }
    out.printf(
        Locale.ROOT,
        "overhead: sequential 1 MiB writes, RS 6+3 (6+2 under 9 servers): via proxies %s MB/s,"
            + " direct %s MB/s%n",
        spread(viaProxy),
        spread(direct));
    out.flush();
  }

  private double writeRate(boolean useProxies) throws Exception {
    Map<String, String> conf =
        Map.of(
            ClientConfigKeys.Cluster.APP_ID.key(),
            A,
            ClientConfigKeys.Cluster.USE_PROXIES.key(),
            String.valueOf(useProxies));
    try (TesseraFileSystem fs = cluster.connect(conf)) {
      int servers = fs.admin().status().dataServers().size();
      QosWorkload w =
          new QosWorkload(
              A,
              servers >= 9 ? CreateOptions.erasure(6, 3) : CreateOptions.erasure(6, 2),
              false,
              threads);
      AtomicLong bytes = new AtomicLong();
      long started = System.nanoTime();
      w.run(fs, bytes, QosRun.deadline(seconds));
      return bytes.get() * 1e3 / ((System.nanoTime() - started) / 1e6) / 1e6;
    }
  }

  private static String fmt(double w) {
    return w == Math.rint(w) ? String.valueOf((long) w) : String.valueOf(w);
  }

  /** Median [min-max] of a few figures. */
  static String spread(List<Double> xs) {
    List<Double> sorted = new ArrayList<>(xs);
    sorted.sort(null);
    double median =
        sorted.size() % 2 == 1
            ? sorted.get(sorted.size() / 2)
            : (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
    return String.format(
        Locale.ROOT, "%.3f [%.3f-%.3f]", median, sorted.get(0), sorted.get(sorted.size() - 1));
  }
}
