package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.CreateOptions;
import io.tessera.client.OpenOptions;
import io.tessera.client.RegionLock;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tessera bench locks}: what a region lock costs at its home. */
@Command(
    name = "locks",
    mixinStandardHelpOptions = true,
    description = {
      "Region lock costs: lock+unlock pairs a second at the lock home (the meta leader) without"
          + " caching, from one client and from --clients on disjoint regions; the same pairs"
          + " served from a client's cache; the hand-off of one region between two clients"
          + " (each lock calls it back from the other); and, for comparison with a lock home on"
          + " a data server, one data server's round trip (a 1-byte read)."
    })
public final class LockBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(names = "--seconds", description = "seconds per measurement (default 5)")
  int seconds = 5;

  @Option(
      names = "--warmup",
      description =
          "untimed seconds of each kind of call first, so the JIT has compiled both sides (default 5)")
  int warmup = 5;

  @Option(names = "--clients", description = "clients of the parallel measurement (default 4)")
  int clients = 4;

  @Option(names = "--handoffs", description = "hand-offs between two clients (default 200)")
  int handoffs = 200;

  @Option(
      names = "--dir",
      description = "directory in the cluster for the test file (default: /bench-locks)")
  String dir = "/bench-locks";

  @Override
  public Integer call() throws Exception {
    if (seconds < 1 || warmup < 0 || clients < 1 || clients > 64 || handoffs < 2) {
      throw new IllegalArgumentException(
          "--seconds must be >= 1, --warmup >= 0, --clients 1 to 64, --handoffs >= 2");
    }
    PrintWriter out = spec.commandLine().getOut();
    List<TesseraFileSystem> uncached = new ArrayList<>();
    List<TesseraFileSystem> cached = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    try {
      for (int i = 0; i < clients; i++) {
        uncached.add(cluster.connect(Map.of("tessera.client.region-cache", "false")));
      }
      cached.add(cluster.connect());
      cached.add(cluster.connect());
      TesseraFileSystem fs = cached.get(0);
      fs.mkdirs(dir);
      String path = dir + "/locks-" + ProcessHandle.current().pid();
      try (TesseraFile f = fs.createFile(path, CreateOptions.defaults().overwrite(true))) {
        f.write(0, new byte[4096], 0, 4096);
      }
      out.printf(
          Locale.ROOT,
          "locks: lock home at the meta leader, %d s per measurement after %d s untimed%n",
          seconds,
          warmup);
      out.flush();
      pairs(pool, uncached, path, warmup);
      handoffs(cached, path);
      reads(fs, path, warmup);
      double one = pairs(pool, uncached.subList(0, 1), path, seconds);
      out.printf(
          Locale.ROOT,
          "lock+unlock, no cache, 1 client: %.0f pairs/s (%.3f ms per round trip)%n",
          one,
          1000 / (2 * one));
      out.printf(
          Locale.ROOT,
          "lock+unlock, no cache, %d clients: %.0f pairs/s%n",
          clients,
          pairs(pool, uncached, path, seconds));
      out.printf(
          Locale.ROOT,
          "lock+unlock, cached, 1 client: %.0f pairs/s%n",
          pairs(pool, cached.subList(0, 1), path, seconds));
      double[] ms = handoffs(cached, path);
      out.printf(
          Locale.ROOT,
          "hand-off of a region between 2 clients: median %.2f ms, p90 %.2f ms (%d hand-offs)%n",
          ms[ms.length / 2],
          ms[ms.length * 9 / 10],
          ms.length);
      double reads = reads(fs, path, seconds);
      out.printf(
          Locale.ROOT,
          "one data server's round trip (a 1-byte read, the cost a home there would start from):"
              + " %.3f ms (%.0f/s)%n",
          1000 / reads,
          reads);
      fs.delete(path, false);
      return 0;
    } finally {
      pool.shutdownNow();
      for (TesseraFileSystem f : uncached) {
        f.close();
      }
      for (TesseraFileSystem f : cached) {
        f.close();
      }
    }
  }

  /** Lock+unlock pairs a second, each client on a region of its own. */
  private double pairs(ExecutorService pool, List<TesseraFileSystem> fss, String path, int secs)
      throws Exception {
    long end = System.nanoTime() + secs * 1_000_000_000L;
    List<Future<Long>> done = new ArrayList<>();
    long start = System.nanoTime();
    for (int c = 0; c < fss.size(); c++) {
      TesseraFileSystem fs = fss.get(c);
      long at = c * 4096L;
      done.add(
          pool.submit(
              () -> {
                long n = 0;
                try (TesseraFile f = fs.openFile(path, OpenOptions.write())) {
                  while (System.nanoTime() - end < 0) {
                    f.lock(at, 4096, false).close();
                    n++;
                  }
                }
                return n;
              }));
    }
    long total = 0;
    for (Future<Long> f : done) {
      total += f.get();
    }
    return total / ((System.nanoTime() - start) / 1e9);
  }

  /** Milliseconds each lock took while the other client cached the region, sorted. */
  private double[] handoffs(List<TesseraFileSystem> two, String path) throws Exception {
    try (TesseraFile a = two.get(0).openFile(path, OpenOptions.write());
        TesseraFile b = two.get(1).openFile(path, OpenOptions.write())) {
      a.lock(0, 4096, false).close();
      double[] ms = new double[handoffs];
      for (int i = 0; i < handoffs; i++) {
        TesseraFile next = i % 2 == 0 ? b : a;
        long t = System.nanoTime();
        RegionLock l = next.lock(0, 4096, false);
        ms[i] = (System.nanoTime() - t) / 1e6;
        l.close();
      }
      Arrays.sort(ms);
      return ms;
    }
  }

  /** 1-byte positional reads a second, each one round trip to one data server. */
  private double reads(TesseraFileSystem fs, String path, int secs) throws Exception {
    byte[] one = new byte[1];
    long n = 0;
    try (TesseraFile f = fs.openFile(path)) {
      long end = System.nanoTime() + secs * 1_000_000_000L;
      long start = System.nanoTime();
      while (System.nanoTime() - end < 0) {
        f.read(0, one, 0, 1);
        n++;
      }
      return n / ((System.nanoTime() - start) / 1e9);
    }
  }
}
