package io.tessera.bench;

import io.tessera.cli.options.CliJson;
import io.tessera.cli.options.ClusterOptions;
import io.tessera.cli.options.LayoutOptions;
import io.tessera.client.CreateOptions;
import io.tessera.client.OpenOptions;
import io.tessera.client.Sharing;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.DataSize;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tessera bench exerciser}: pCFS's controller and exercisers. */
@Command(
    name = "exerciser",
    mixinStandardHelpOptions = true,
    description = {
      "Sharing of one file by cooperating processes, as pCFS measured it: --processes clients"
          + " (each its own connection and lease, as processes on different machines) each own"
          + " one contiguous region of a --size file and read or write it in --record records.",
      "Kinds: wrt, wrt-lck (one exclusive region lock, then every record), wrt-sml-lck (lock,"
          + " write, unlock per record), and the readers rdr, rdr-lck, rdr-sml-lck (shared"
          + " locks; every byte is checked). Writers with locks open the file DISJOINT_WRITERS,"
          + " readers with locks SHARED_READERS.",
      "--pattern is a string of steps: S runs the processes one after another, P all at once;"
          + " every step covers every region once. An untimed wrt pass writes the file first, so"
          + " every kind overwrites or reads written bytes. Prints one line per kind: 'wrt-lck: 123.4"
          + " MB/s'. -Dtessera.client.region-cache=false measures without cached locks."
    })
public final class ExerciserCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Mixin LayoutOptions layout;

  @Option(names = "--pattern", description = "steps, S (sequential) or P (parallel) (default P)")
  String pattern = "P";

  @Option(names = "--size", description = "bytes of the shared file (default 1G)")
  String size = "1G";

  @Option(names = "--record", description = "bytes per read or write, 4K to 4M (default 64K)")
  String record = "64K";

  @Option(names = "--processes", description = "clients sharing the file (default 4)")
  int processes = 4;

  @Option(
      names = "--kind",
      description = "exerciser kind to run (default wrt-lck); see --all",
      converter = KindConverter.class)
  ExerciserKind kind = ExerciserKind.wrtLck;

  @Option(names = "--all", description = "every kind, writers first (readers read what they wrote)")
  boolean all;

  @Option(
      names = "--runs",
      description =
          "rounds of every kind, in turn (A, B, A, B...); the median is reported with the range"
              + " (default 1)")
  int runs = 1;

  @Option(names = "--dir", description = "cluster directory for the file (default /exerciser)")
  String dir = "/exerciser";

  @Option(names = "--json", description = "print the results as JSON")
  boolean json;

  /** One kind's result. */
  public record Result(
      String kind,
      double mbPerSecond,
      double seconds,
      long bytes,
      long lockRoundTrips,
      long stripeLockRefusals) {}

  /** The run: its parameters and each kind's result. */
  public record Report(
      String pattern, long size, int record, int processes, String layout, List<Result> kinds) {}

  static final class KindConverter implements picocli.CommandLine.ITypeConverter<ExerciserKind> {
    @Override
    public ExerciserKind convert(String value) {
      return ExerciserKind.parse(value);
    }
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    long bytes = DataSize.parse(size);
    int recordBytes = (int) DataSize.parse(record);
    if (!pattern.matches("[SP]+")) {
      throw new IllegalArgumentException(
          "--pattern is a string of S and P steps (SPPS), not " + pattern);
    }
    if (processes < 1 || processes > 64 || runs < 1) {
      throw new IllegalArgumentException("--processes must be 1 to 64 and --runs at least 1");
    }
    if (recordBytes < 1 || recordBytes > (64 << 20)) {
      throw new IllegalArgumentException("--record must be 1 byte to 64 MiB");
    }
    long regionBytes = bytes / processes / recordBytes * recordBytes;
    if (regionBytes < recordBytes) {
      throw new IllegalArgumentException(
          "--size must give every process at least one --record: " + processes + " x " + record);
    }
    CreateOptions o = layout.toOptions();
    List<ExerciserKind> kinds = all ? List.of(ExerciserKind.values()) : List.of(kind);
    List<TesseraFileSystem> fss = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(processes);
    try {
      for (int i = 0; i < processes; i++) {
        fss.add(cluster.connect());
      }
      TesseraFileSystem fs = fss.get(0);
      fs.mkdirs(dir);
      String path = dir + "/exerciser-" + ProcessHandle.current().pid();
      try (TesseraFile f =
          fs.createFile(path, (o == null ? CreateOptions.defaults() : o).overwrite(true))) {
        // sized first, as a checkpoint file is: no write is timed with a size update in it
        f.truncate(regionBytes * processes);
      }
      String layoutName = IorCommand.layoutOf(fs.stat(path));
      if (!json) {
        out.printf(
            Locale.ROOT,
            "exerciser: %d processes, %s regions of one %s file, records %s, pattern %s, layout %s%n",
            processes,
            DataSize.format(regionBytes),
            DataSize.format(regionBytes * processes),
            DataSize.format(recordBytes),
            pattern,
            layoutName);
        out.flush();
      }
      // every kind overwrites (or reads) bytes written before, in an untimed pass of wrt that
      // also warms up both sides
      Result warm = run(pool, fss, path, ExerciserKind.wrt, regionBytes, recordBytes);
      if (!json) {
        out.printf(Locale.ROOT, "untimed pass (wrt): %.1f MB/s%n", warm.mbPerSecond());
        out.flush();
      }
      List<List<Result>> byKind = new ArrayList<>();
      kinds.forEach(k -> byKind.add(new ArrayList<>()));
      for (int round = 0; round < runs; round++) {
        for (int i = 0; i < kinds.size(); i++) {
          byKind.get(i).add(run(pool, fss, path, kinds.get(i), regionBytes, recordBytes));
        }
      }
      List<Result> results = new ArrayList<>();
      for (List<Result> rs : byKind) {
        List<Result> sorted =
            rs.stream().sorted(java.util.Comparator.comparingDouble(Result::mbPerSecond)).toList();
        Result r = sorted.get(sorted.size() / 2);
        results.add(r);
        if (!json) {
          out.printf(
              Locale.ROOT,
              runs > 1 ? "%s: %.1f MB/s (runs %.1f-%.1f)%n" : "%s: %.1f MB/s%n",
              r.kind(),
              r.mbPerSecond(),
              sorted.get(0).mbPerSecond(),
              sorted.get(sorted.size() - 1).mbPerSecond());
        }
      }
      if (json) {
        CliJson.print(out, new Report(pattern, bytes, recordBytes, processes, layoutName, results));
      } else {
        out.println("per kind: region-lock round trips to the lock home, stripe-lock refusals");
        for (Result r : results) {
          out.printf(
              Locale.ROOT,
              "  %-12s %8d %8d%n",
              r.kind(),
              r.lockRoundTrips(),
              r.stripeLockRefusals());
        }
      }
      fs.delete(path, false);
      return 0;
    } finally {
      pool.shutdownNow();
      for (TesseraFileSystem f : fss) {
        f.close();
      }
    }
  }

  private Result run(
      ExecutorService pool,
      List<TesseraFileSystem> fss,
      String path,
      ExerciserKind k,
      long regionBytes,
      int recordBytes)
      throws Exception {
    long trips = counter(fss, true);
    long refusals = counter(fss, false);
    OpenOptions open =
        k.locking == ExerciserKind.Locking.NONE
            ? (k.writes ? OpenOptions.write() : OpenOptions.read())
            : k.writes
                ? OpenOptions.write().sharing(Sharing.DISJOINT_WRITERS)
                : OpenOptions.read().sharing(Sharing.SHARED_READERS);
    long start = System.nanoTime();
    for (char step : pattern.toCharArray()) {
      List<Future<?>> running = new ArrayList<>();
      for (int p = 0; p < processes; p++) {
        int process = p;
        Callable<Void> one =
            () -> {
              try (TesseraFile f = fss.get(process).openFile(path, open)) {
                k.run(f, process, process * regionBytes, regionBytes, recordBytes);
              }
              return null;
            };
        if (step == 'P') {
          running.add(pool.submit(one));
        } else {
          one.call();
        }
      }
      for (Future<?> f : running) {
        f.get();
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    long total = regionBytes * processes * pattern.length();
    return new Result(
        k.label(),
        total / 1e6 / seconds,
        seconds,
        total,
        counter(fss, true) - trips,
        counter(fss, false) - refusals);
  }

  private static long counter(List<TesseraFileSystem> fss, boolean trips) {
    long n = 0;
    for (TesseraFileSystem f : fss) {
      n +=
          trips
              ? f.async().ioCounters().regionRoundTrips.get()
              : f.async().ioCounters().lockRefusals.get();
    }
    return n;
  }
}
