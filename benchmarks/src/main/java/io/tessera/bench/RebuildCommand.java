package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.DataSize;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench rebuild}: how fast recovery rebuilds one data server's shards, and what that
 * leaves foreground writers. On a {@code tessera local} cluster: measures foreground write
 * throughput, SIGKILLs one data server, writes files until it has missed {@code --shard-bytes} of
 * shards, starts it again with its recorded command, and measures the rebuild (time, MB/s) with the
 * foreground writers running, then their throughput during it.
 */
@Command(
    name = "rebuild",
    mixinStandardHelpOptions = true,
    description = {
      "Rebuild rate of one data server's shards, and foreground write throughput during the rebuild.",
      "With --decommission: the rate at which a decommissioned server's units move to other servers.",
      "Needs the cluster.json of a `tessera local` cluster (run from the repository root): the victim is",
      "SIGKILLed, files it misses are written, then it is started again with its recorded command.",
      "Rebuilds run at up to tessera.meta.rebuild-rate (set on the meta servers); while clients are busy, at up",
      "to tessera.meta.rebuild-rate-under-load, holding stripe locks that writers wait on at most",
      "tessera.meta.rebuild-lock-share-under-load of the time."
    })
public final class RebuildCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(
      names = "--cluster-file",
      defaultValue = "tessera-data/cluster.json",
      description = "cluster.json of the local cluster (default: ${DEFAULT-VALUE})")
  Path clusterFile;

  @Option(
      names = "--victim",
      description = "data server to kill and rebuild (default: the last one)")
  String victim;

  @Option(
      names = "--shard-bytes",
      defaultValue = "1G",
      description = "shard bytes the victim misses and gets rebuilt (default: ${DEFAULT-VALUE})")
  String shardBytes;

  @Option(
      names = "--ec",
      defaultValue = "6+3",
      description = "layout of the files (default: ${DEFAULT-VALUE})")
  String ec;

  @Option(
      names = "--fg-clients",
      defaultValue = "2",
      description = "foreground writers (default: ${DEFAULT-VALUE})")
  int fgClients;

  @Option(
      names = "--decommission",
      description = {
        "measure a drain instead: write the files while every server"
            + " is up, then decommission the victim and time until it is retired (its units moved to servers outside"
            + " each file's layout, so the cluster needs more data servers than the layout is wide); recommissioned"
            + " afterwards"
      })
  boolean decommission;

  @Option(
      names = "--baseline",
      defaultValue = "15",
      description = "seconds of foreground writes measured before (default: ${DEFAULT-VALUE})")
  int baselineSeconds;

  @Option(
      names = "--warmup",
      defaultValue = "10",
      description =
          "seconds of foreground writes before the baseline, "
              + "not measured: a cluster just started writes slower until its JVMs have compiled the write path "
              + "(default: ${DEFAULT-VALUE})")
  int warmupSeconds;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    CreateOptions layout;
    try {
      layout = CreateOptions.erasure(ec).stripeUnit(1 << 20);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--ec " + e.getMessage());
    }
    if (warmupSeconds < 0 || baselineSeconds < 1 || fgClients < 1) {
      throw new IllegalArgumentException(
          "--warmup must be >= 0, --baseline and --fg-clients >= 1; got "
              + warmupSeconds
              + ", "
              + baselineSeconds
              + " and "
              + fgClients);
    }
    String[] km = ec.split("\\+");
    int k = Integer.parseInt(km[0].trim());
    int m = Integer.parseInt(km[1].trim());
    ClusterFile file = ClusterFile.read(clusterFile);
    ClusterFile.Node node =
        file.data().stream()
            .filter(d -> victim == null || d.id().equals(victim))
            .reduce((a, b) -> victim == null ? b : a)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no data server " + victim + " in " + clusterFile));
    long missBytes = DataSize.parse(shardBytes);
    try (TesseraFileSystem fs = cluster.connect()) {
      fs.mkdirs("/bench/rebuild", layout);
      int width = fs.admin().status().dataServers().size();
      if (width != k + m) {
        out.printf(
            "note: %d data servers, files of width %d: the victim holds a share of each file only where"
                + " placed%n",
            width, k + m);
      }
      Foreground fg = new Foreground(fs, layout, fgClients);
      out.printf(
          Locale.ROOT,
          "Foreground: %d writers, 1 MiB writes into 256 MiB files (%s)%n",
          fgClients,
          ec);
      out.flush();
      double before = fgClients == 0 ? Double.NaN : fg.measure(warmupSeconds, baselineSeconds);
      if (fgClients > 0) {
        out.printf(Locale.ROOT, "  healthy: %.1f MB/s%n", before / 1e6);
      }

      // every stripe puts one unit on each of its k+m servers: the victim misses size/k per file
      long perFile = 512L << 20;
      int files = (int) Math.max(1, (missBytes * k + perFile - 1) / perFile);
      if (decommission) {
        drain(out, fs, fg, node.id(), layout, files, perFile, before);
        return 0;
      }
      for (int f = 0; f < files; f++) {
        // created while every server is up: new files need all k+m servers
        fs.createFile("/bench/rebuild/missed-" + f, layout).close();
      }
      long killedAt = System.nanoTime();
      ProcessHandle.of(node.pid()).ifPresent(ProcessHandle::destroyForcibly);
      await(() -> state(fs, node.id()).equals("down"), 60);
      out.printf(
          Locale.ROOT,
          "Killed %s (pid %d): found down after %d ms%n",
          node.id(),
          node.pid(),
          (System.nanoTime() - killedAt) / 1_000_000);

      writeWhileDown(out, fs, node.id(), files, perFile, k);

      ClusterStatus.Rebuild startCounters = rebuildOf(fs, node.id());
      long doneBefore = startCounters == null ? 0 : startCounters.bytesDone();
      List<String> cmd = node.cmd();
      Path log =
          clusterFile.toAbsolutePath().getParent().resolve("logs").resolve(node.id() + ".log");
      if (fgClients > 0) {
        fg.start();
      }
      long restartAt = System.nanoTime();
      Process p =
          new ProcessBuilder(cmd)
              .redirectErrorStream(true)
              .redirectOutput(Redirect.appendTo(log.toFile()))
              .start();
      out.printf("Restarted %s (pid %d); rebuilding...%n", node.id(), p.pid());
      awaitRebuilt(out, fs, node.id(), doneBefore);
      long healedAt = System.nanoTime();
      double during = fgClients == 0 ? Double.NaN : fg.stop(restartAt, healedAt);
      ClusterStatus.Rebuild r = rebuildOf(fs, node.id());
      long rebuilt = (r == null ? 0 : r.bytesDone()) - doneBefore;
      double secs = (healedAt - restartAt) / 1e9;
      out.printf(
          Locale.ROOT,
          "Rebuild of %s: %s in %.1f s from restart to up = %.1f MB/s (limit %s/s)%n",
          node.id(),
          DataSize.format(rebuilt),
          secs,
          rebuilt / secs / 1e6,
          DataSize.format(fs.admin().status().recovery().rateLimitBytesPerSecond()));
      if (fgClients > 0) {
        out.printf(
            Locale.ROOT,
            "Foreground writes: %.1f MB/s healthy, %.1f MB/s during the rebuild = %.2f of before%n",
            before / 1e6,
            during / 1e6,
            during / before);
      }
      for (int f = 0; f < files; f++) {
        fs.delete("/bench/rebuild/missed-" + f, false);
      }
      fg.cleanUp();
      return 0;
    }
  }

  /** Writes the files while the victim is down, with progress: what it misses is rebuilt later. */
  private static void writeWhileDown(
      PrintWriter out, TesseraFileSystem fs, String victim, int files, long perFile, int k)
      throws IOException {
    out.printf(
        Locale.ROOT,
        "Writing %d x 512 MiB while %s is down (it misses about %s)%n",
        files,
        victim,
        DataSize.format(files * perFile / k));
    byte[] chunk = new byte[8 << 20];
    new Random(1).nextBytes(chunk);
    long t0 = System.nanoTime();
    for (int f = 0; f < files; f++) {
      try (TesseraFile t = fs.openFile("/bench/rebuild/missed-" + f)) {
        for (long off = 0; off < perFile; off += chunk.length) {
          chunk[0] = (byte) (off >> 23);
          t.write(off, chunk, 0, chunk.length);
        }
      }
      out.printf(
          Locale.ROOT,
          "  %d/%d files (%.1f MB/s degraded)%n",
          f + 1,
          files,
          (f + 1) * perFile / ((System.nanoTime() - t0) / 1e9) / 1e6);
      out.flush();
    }
  }

  /** Waits until the victim is up with nothing left to rebuild, printing progress every 5 s. */
  private static void awaitRebuilt(
      PrintWriter out, TesseraFileSystem fs, String victim, long doneBefore) throws Exception {
    long lastPrint = 0;
    while (true) {
      ClusterStatus.DataServer d =
          fs.admin().status().dataServers().stream()
              .filter(x -> x.id().equals(victim))
              .findFirst()
              .orElseThrow();
      if (d.up() && d.filesToRebuild() == 0) {
        return;
      }
      if (System.nanoTime() - lastPrint > 5_000_000_000L) {
        lastPrint = System.nanoTime();
        ClusterStatus.Rebuild r = rebuildOf(fs, victim);
        out.printf(
            Locale.ROOT,
            "  %s: %s, %d files left, %s rebuilt%n",
            victim,
            d.state(),
            d.filesToRebuild(),
            DataSize.format(r == null ? 0 : r.bytesDone() - doneBefore));
        out.flush();
      }
      Thread.sleep(200);
    }
  }

  /** Writes the files with every server up, then decommissions the victim and times its drain. */
  private static void drain(
      PrintWriter out,
      TesseraFileSystem fs,
      Foreground fg,
      String victim,
      CreateOptions layout,
      int files,
      long perFile,
      double before)
      throws Exception {
    byte[] chunk = new byte[8 << 20];
    new Random(2).nextBytes(chunk);
    out.printf(Locale.ROOT, "Writing %d x 512 MiB with every server up%n", files);
    out.flush();
    for (int f = 0; f < files; f++) {
      try (TesseraFile t = fs.createFile("/bench/rebuild/drained-" + f, layout)) {
        for (long off = 0; off < perFile; off += chunk.length) {
          t.write(off, chunk, 0, chunk.length);
        }
      }
    }
    ClusterStatus.Rebuild earlier =
        drainOf(fs, victim); // counters of drains since the leader took over
    long movedBefore = earlier == null ? 0 : earlier.bytesDone();
    long filesBefore = earlier == null ? 0 : earlier.filesDone();
    if (fg.clients > 0) {
      fg.start();
    }
    long startAt = System.nanoTime();
    out.println(fs.admin().decommission(victim));
    long lastPrint = 0;
    while (!state(fs, victim).equals("retired")) {
      if (System.nanoTime() - lastPrint > 5_000_000_000L) {
        lastPrint = System.nanoTime();
        ClusterStatus.Rebuild r = drainOf(fs, victim);
        out.printf(
            Locale.ROOT,
            "  %s: %d files left, %s moved%n",
            victim,
            r == null ? -1 : r.filesLeft(),
            DataSize.format(r == null ? 0 : r.bytesDone() - movedBefore));
        out.flush();
      }
      Thread.sleep(200);
    }
    long doneAt = System.nanoTime();
    double during = fg.clients == 0 ? Double.NaN : fg.stop(startAt, doneAt);
    ClusterStatus.Rebuild r = drainOf(fs, victim);
    long moved = (r == null ? 0 : r.bytesDone()) - movedBefore;
    double secs = (doneAt - startAt) / 1e9;
    out.printf(
        Locale.ROOT,
        "Drain of %s: %d files, %s moved in %.1f s from decommission to retired = %.1f MB/s"
            + " (limit %s/s)%n",
        victim,
        (r == null ? 0 : r.filesDone()) - filesBefore,
        DataSize.format(moved),
        secs,
        moved / secs / 1e6,
        DataSize.format(fs.admin().status().recovery().rateLimitBytesPerSecond()));
    if (fg.clients > 0) {
      out.printf(
          Locale.ROOT,
          "Foreground writes: %.1f MB/s healthy, %.1f MB/s during the drain = %.2f of before%n",
          before / 1e6,
          during / 1e6,
          during / before);
    }
    out.println(fs.admin().recommission(victim));
    await(() -> state(fs, victim).equals("up"), 120);
    for (int f = 0; f < files; f++) {
      fs.delete("/bench/rebuild/drained-" + f, false);
    }
    fg.cleanUp();
  }

  private static ClusterStatus.Rebuild drainOf(TesseraFileSystem fs, String id) throws Exception {
    return fs.admin().status().recovery().rebuilds().stream()
        .filter(r -> r.draining() && r.server().equals(id))
        .findFirst()
        .orElse(null);
  }

  private static ClusterStatus.Rebuild rebuildOf(TesseraFileSystem fs, String id) throws Exception {
    return fs.admin().status().recovery().rebuilds().stream()
        .filter(r -> !r.draining() && r.server().equals(id))
        .findFirst()
        .orElse(null);
  }

  private static String state(TesseraFileSystem fs, String id) {
    try {
      return fs.admin().status().dataServers().stream()
          .filter(d -> d.id().equals(id))
          .findFirst()
          .orElseThrow()
          .state();
    } catch (Exception e) {
      return "?";
    }
  }

  private static void await(BooleanSupplier c, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!c.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + seconds + " s");
      }
      Thread.sleep(100);
    }
  }

  /** IOR-like writers: sequential 1 MiB overwrites, each in its own 256 MiB file. */
  private static final class Foreground {
    private static final int TRANSFER = 1 << 20;
    private static final long FILE = 256L << 20;
    private final TesseraFileSystem fs;
    private final CreateOptions layout;
    final int clients;
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private ExecutorService pool;
    private final List<Future<?>> running = new ArrayList<>();

    Foreground(TesseraFileSystem fs, CreateOptions layout, int clients) {
      this.fs = fs;
      this.layout = layout;
      this.clients = clients;
    }

    void start() {
      stop.set(false);
      pool = Executors.newFixedThreadPool(clients);
      for (int c = 0; c < clients; c++) {
        int id = c;
        running.add(
            pool.submit(
                () -> {
                  byte[] buf = new byte[TRANSFER];
                  new Random(id).nextBytes(buf);
                  String path = "/bench/rebuild/fg-" + id;
                  try (TesseraFile f =
                      fs.exists(path) ? fs.openFile(path) : fs.createFile(path, layout)) {
                    for (long off = 0; !stop.get(); off = (off + TRANSFER) % FILE) {
                      f.write(off, buf, 0, TRANSFER);
                      bytes.addAndGet(TRANSFER);
                    }
                  }
                  return null;
                }));
      }
    }

    double measure(int warmupSeconds, int seconds) throws Exception {
      start();
      Thread.sleep(warmupSeconds * 1000L);
      long b0 = bytes.get();
      long t0 = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      double rate = (bytes.get() - b0) / ((System.nanoTime() - t0) / 1e9);
      halt();
      return rate;
    }

    /**
     * Stops the writers; returns their rate between the two instants (measured from the byte
     * counter).
     */
    double stop(long fromNanos, long toNanos) throws Exception {
      double rate = bytes.get() / ((System.nanoTime() - fromNanos) / 1e9);
      halt();
      return rate;
    }

    private void halt() throws Exception {
      stop.set(true);
      for (Future<?> f : running) {
        f.get(60, TimeUnit.SECONDS);
      }
      running.clear();
      pool.shutdown();
      bytes.set(0);
    }

    void cleanUp() throws Exception {
      for (int c = 0; c < clients; c++) {
        if (fs.exists("/bench/rebuild/fg-" + c)) {
          fs.delete("/bench/rebuild/fg-" + c, false);
        }
      }
    }
  }
}
