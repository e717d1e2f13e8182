package io.tessera.cli.bench;

import io.tessera.cli.ClusterOptions;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench meta}: creates of empty files per second, then stats per second, from T
 * threads.
 */
@Command(
    name = "meta",
    mixinStandardHelpOptions = true,
    description =
        "Metadata rate: T threads create N empty files in one directory, then stat each of them.")
public final class MetaBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(
      names = "--threads",
      defaultValue = "4",
      description = "client threads (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--files",
      defaultValue = "10000",
      description = "files in all (default ${DEFAULT-VALUE})")
  int files;

  @Option(
      names = "--warmup",
      paramLabel = "FILES",
      description =
          "files of each untimed warm-up pass of creates "
              + "and stats (0: none; default: as many as --files)")
  Integer warmup;

  @Option(
      names = "--warmup-passes",
      defaultValue = "auto",
      description =
          "warm-up passes: a number, or auto: until "
              + "a pass creates within 10 %% of the rate of the pass before, at most 6 (default ${DEFAULT-VALUE})")
  String warmupPasses;

  @Option(
      names = "--dir",
      defaultValue = "/bench/meta",
      description = "cluster directory for the files")
  String dir;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (threads < 1 || files < threads) {
      throw new IllegalArgumentException("--threads must be >= 1 and --files >= --threads");
    }
    int warmupFiles = warmup == null ? files : warmup;
    if (warmupFiles < 0) {
      throw new IllegalArgumentException(
          "--warmup " + warmupFiles + " is negative (0: no warm-up)");
    }
    SteadyState steady = SteadyState.of(warmupPasses);
    String run = dir + "/run-" + ProcessHandle.current().pid();
    List<TesseraFileSystem> fss = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int i = 0; i < threads; i++) {
        fss.add(cluster.connect());
      }
      if (warmupFiles > 0) {
        int warmFiles = Math.max(warmupFiles, threads);
        steady.warmUp(
            () -> {
              String pass = run + "/warmup-" + (steady.rates().size() + 1);
              fss.get(0).mkdirs(pass);
              double rate = warmFiles / timed(pool, fss, pass, warmFiles, true);
              timed(pool, fss, pass, warmFiles, false);
              return rate;
            });
        out.printf(
            Locale.ROOT,
            "warm-up, untimed: %d pass(es) of %d files, creates %s ops/s%n",
            steady.rates().size(),
            warmFiles,
            steady.ratesText());
      }
      fss.get(0).mkdirs(run + "/timed");
      double create = timed(pool, fss, run + "/timed", files, true);
      double stat = timed(pool, fss, run + "/timed", files, false);
      out.printf(
          Locale.ROOT,
          "creates: %.0f ops/s (%d files, %d threads, %.2f s)%n",
          files / create,
          files,
          threads,
          create);
      out.printf(
          Locale.ROOT,
          "stats:   %.0f ops/s (%d files, %d threads, %.2f s)%n",
          files / stat,
          files,
          threads,
          stat);
      fss.get(0).delete(run, true);
      return 0;
    } finally {
      pool.shutdownNow();
      fss.forEach(TesseraFileSystem::close);
    }
  }

  private double timed(
      ExecutorService pool, List<TesseraFileSystem> fss, String dirPath, int n, boolean create)
      throws Exception {
    return Spread.timed(
        pool,
        threads,
        n,
        (thread, i) -> {
          String p = dirPath + "/f-" + thread + "-" + i;
          if (create) {
            fss.get(thread).createFile(p, CreateOptions.defaults()).close();
          } else {
            fss.get(thread).stat(p);
          }
        });
  }
}
