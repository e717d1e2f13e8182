package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.cli.options.LayoutOptions;
import io.tessera.cli.options.PositiveDuration;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.common.config.DataSize;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench snapshot-overhead}: what snapshots cost a busy file system. The same
 * IOR-like write load runs for a fixed time with no snapshots, then with one every 10 s, then one
 * every second; reported: throughput and its loss, snapshot latency, refused attempts.
 */
@Command(
    name = "snapshot-overhead",
    mixinStandardHelpOptions = true,
    description = {
      "Write throughput without snapshots, with one every 10 s and with one every second.",
      "Also snapshot latency p50/p99/max, attempts refused (a busy data server) and snapshots that failed.",
      "Clients write sequentially into a file each, one transfer at a time as IOR does, wrapping around",
      "at --file-size. A first, untimed pass fills the files (so every phase overwrites) and takes one",
      "warm-up snapshot. Only the newest --keep snapshots are kept (older ones are deleted as the run",
      "goes, as a rolling schedule would). With --rounds N the three phases run N times, each round",
      "starting with another one, so that a drift in the machine's load does not favour one phase; the",
      "last lines sum the rounds up."
    })
public final class SnapshotOverheadCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Mixin LayoutOptions layout;

  @Option(
      names = "--clients",
      defaultValue = "4",
      description = "concurrent writers (default ${DEFAULT-VALUE})")
  int clients;

  @Option(
      names = "--transfer",
      defaultValue = "1M",
      description = "bytes per write call (default ${DEFAULT-VALUE})")
  String transfer;

  @Option(
      names = "--file-size",
      defaultValue = "256M",
      description = "each client's file; writes wrap around (default ${DEFAULT-VALUE})")
  String fileSize;

  @Option(
      converter = PositiveDuration.class,
      names = "--duration",
      defaultValue = "30s",
      description = "length of each phase (default ${DEFAULT-VALUE})")
  Duration duration;

  @Option(
      names = "--keep",
      defaultValue = "3",
      description = "snapshots kept while running (default ${DEFAULT-VALUE})")
  int keep;

  @Option(
      names = "--dir",
      defaultValue = "/bench/snapshot-overhead",
      description = "cluster directory for the files")
  String dir;

  @Option(
      names = "--rounds",
      defaultValue = "1",
      description = "times the three phases run, in rotating order " + "(default ${DEFAULT-VALUE})")
  int rounds;

  private static final Duration[] SCHEDULES = {null, Duration.ofSeconds(10), Duration.ofSeconds(1)};

  /** Snapshots taken and not deleted yet, oldest first. */
  private final Deque<String> kept = new ArrayDeque<>();

  private record Phase(
      String name,
      long bytes,
      double seconds,
      List<Long> latencies,
      int attemptsRefused,
      int failed) {
    double mbPerSec() {
      return bytes / 1e6 / seconds;
    }

    Phase plus(Phase o) {
      List<Long> all = new ArrayList<>(latencies);
      all.addAll(o.latencies);
      return new Phase(
          name,
          bytes + o.bytes,
          seconds + o.seconds,
          all,
          attemptsRefused + o.attemptsRefused,
          failed + o.failed);
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    long transferAsked = DataSize.parse(transfer);
    if (clients < 1 || rounds < 1 || keep < 0 || transferAsked < 1 || transferAsked > (1 << 30)) {
      throw new IllegalArgumentException(
          "--clients and --rounds must be at least 1, --keep at least 0, --transfer from 1 byte to"
              + " 1 GiB");
    }
    int transferBytes = (int) transferAsked;
    long fileBytes = DataSize.parse(fileSize) / transferBytes * transferBytes;
    if (fileBytes < 1) {
      throw new IllegalArgumentException("--file-size must hold at least one --transfer");
    }
    CreateOptions o = layout.toOptions();
    Duration phaseLength = duration;
    List<TesseraFileSystem> fss = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients + 1);
    try {
      for (int i = 0; i < clients; i++) {
        fss.add(cluster.connect());
      }
      TesseraFileSystem fs = fss.get(0);
      fs.mkdirs(dir);
      List<String> files = new ArrayList<>();
      for (int i = 0; i < clients; i++) {
        String path = dir + "/w" + i;
        fs.createFile(path, (o == null ? CreateOptions.erasure(6, 3) : o).overwrite(true)).close();
        files.add(path);
      }
      out.printf(
          Locale.ROOT,
          "snapshot-overhead: %d client(s), transfer %s, file %s each, layout %s, %s per phase%n",
          clients,
          DataSize.format(transferBytes),
          DataSize.format(fileBytes),
          fs.stat(files.get(0)).layout(),
          phaseLength);
      out.flush();
      // every phase overwrites existing stripes alike: the files are filled first
      for (int i = 0; i < clients; i++) {
        fill(fs, files.get(i), fileBytes, i, transferBytes);
      }
      // untimed, as the fill: the first snapshot a cluster takes after its servers start loads
      // and compiles the code of every step on every server (several times a warm one's latency)
      fs.admin().snapshots().create(prefix() + "warm-up");
      Phase[] total = new Phase[SCHEDULES.length];
      for (int r = 0; r < rounds; r++) {
        if (rounds > 1) {
          out.printf(Locale.ROOT, "round %d of %d:%n", r + 1, rounds);
        }
        Phase[] these = new Phase[SCHEDULES.length];
        for (int i = 0; i < SCHEDULES.length; i++) {
          int kind = (i + r) % SCHEDULES.length;
          these[kind] =
              run(
                  pool,
                  fss,
                  files,
                  transferBytes,
                  fileBytes,
                  phaseLength,
                  SCHEDULES[kind],
                  r + "-" + kind);
          total[kind] = total[kind] == null ? these[kind] : total[kind].plus(these[kind]);
        }
        for (Phase p : these) {
          report(out, p, these[0]);
        }
      }
      if (rounds > 1) {
        out.printf(Locale.ROOT, "all %d rounds:%n", rounds);
        for (Phase p : total) {
          report(out, p, total[0]);
        }
      }
      for (SnapshotInfo s : fs.admin().snapshots().list()) {
        if (s.name().startsWith(prefix())) {
          fs.admin().snapshots().delete(s.name());
        }
      }
      for (String f : files) {
        fs.delete(f, false);
      }
      return Arrays.stream(total).anyMatch(p -> p.failed > 0) ? 1 : 0;
    } finally {
      pool.shutdownNow();
      fss.forEach(TesseraFileSystem::close);
    }
  }

  private String prefix() {
    return "bench-" + ProcessHandle.current().pid() + "-";
  }

  private Phase run(
      ExecutorService pool,
      List<TesseraFileSystem> fss,
      List<String> files,
      int transferBytes,
      long fileBytes,
      Duration length,
      Duration every,
      String phase)
      throws Exception {
    AtomicLong bytes = new AtomicLong();
    long start = System.nanoTime();
    long end = start + length.toNanos();
    List<Future<?>> writers = new ArrayList<>();
    for (int i = 0; i < clients; i++) {
      int client = i;
      writers.add(
          pool.submit(
              () -> {
                Pattern p = new Pattern(client, transferBytes);
                byte[] buf = new byte[transferBytes];
                long pos = 0;
                // as IOR's POSIX back end: one transfer at a time per client, each a positional
                // write
                try (TesseraFile f = fss.get(client).openFile(files.get(client))) {
                  while (System.nanoTime() < end) {
                    p.fill(buf, transferBytes, pos);
                    f.write(pos, buf, 0, transferBytes);
                    bytes.addAndGet(transferBytes);
                    pos = pos + transferBytes >= fileBytes ? 0 : pos + transferBytes;
                  }
                }
                return null;
              }));
    }
    List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
    int refused = 0;
    int failed = 0;
    if (every != null) {
      TesseraFileSystem fs = fss.get(0);
      long next = start + every.toNanos();
      for (int n = 0; ; n++) {
        long wait = next - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
        if (System.nanoTime() >= end) {
          break;
        }
        next += every.toNanos();
        String name = prefix() + phase + "-" + n;
        long t0 = System.nanoTime();
        try {
          SnapshotInfo s = fs.admin().snapshots().create(name);
          latencies.add((System.nanoTime() - t0) / 1_000_000);
          refused += s.attempts() - 1;
          kept.add(name);
          while (kept.size() > keep) {
            fs.admin().snapshots().delete(kept.poll());
          }
        } catch (Exception e) {
          failed++;
          spec.commandLine().getErr().println("snapshot " + name + " failed: " + e.getMessage());
        }
      }
    }
    for (Future<?> w : writers) {
      w.get();
    }
    double secs = (System.nanoTime() - start) / 1e9;
    String name = every == null ? "no snapshots" : "one every " + every.toSeconds() + " s";
    return new Phase(name, bytes.get(), secs, latencies, refused, failed);
  }

  private static void fill(
      TesseraFileSystem fs, String path, long bytes, int client, int transferBytes)
      throws Exception {
    Pattern p = new Pattern(client, transferBytes);
    byte[] buf = new byte[transferBytes];
    try (TesseraFile f = fs.openFile(path);
        OutputStream o = f.newOutputStream(0)) {
      for (long pos = 0; pos < bytes; pos += transferBytes) {
        p.fill(buf, transferBytes, pos);
        o.write(buf, 0, transferBytes);
      }
    }
  }

  private static void report(PrintWriter out, Phase p, Phase base) {
    List<Long> l = new ArrayList<>(p.latencies);
    Collections.sort(l);
    String lat =
        l.isEmpty()
            ? ""
            : String.format(
                Locale.ROOT,
                "; %d snapshot(s), latency p50 %d ms, p99 %d ms, max %d ms,"
                    + " %d attempt(s) refused, %d failed",
                l.size(),
                pct(l, 50),
                pct(l, 99),
                l.get(l.size() - 1),
                p.attemptsRefused,
                p.failed);
    out.printf(
        Locale.ROOT,
        "  %-16s write %7.1f MB/s (%+.1f%% vs none)%s%n",
        p.name,
        p.mbPerSec(),
        (p.mbPerSec() / base.mbPerSec() - 1) * 100,
        lat);
    out.flush();
  }

  private static long pct(List<Long> sorted, int p) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
  }
}
