package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.localcluster.ProcessCluster;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench meta}: creates, stats and removes of empty files per second, shaped like
 * mdtest: P client processes of T threads, all in one shared directory, then each thread in a
 * directory of its own.
 */
@Command(
    name = "meta",
    mixinStandardHelpOptions = true,
    description = {
      "Metadata rate, shaped like mdtest: P clients of T threads create N empty files, stat them and"
          + " remove them, first all in one shared directory, then each thread in a directory of its own.",
      "With --clients above 1 each client is a process of its own (as separate machines' clients"
          + " would be); every phase starts in all clients together and is timed to the last one's end."
    })
public final class MetaBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(
      names = "--clients",
      defaultValue = "1",
      description =
          "client processes (default ${DEFAULT-VALUE}: this process's threads, no other process)")
  int clients;

  @Option(
      names = "--threads",
      defaultValue = "4",
      description = "threads of each client (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--files",
      defaultValue = "10000",
      description =
          "files of each phase in all, spread over every client's threads (default ${DEFAULT-VALUE})")
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
    if (threads < 1 || clients < 1 || files < threads * clients) {
      throw new IllegalArgumentException(
          "--clients and --threads must be >= 1 and --files >= clients x threads");
    }
    int warmupFiles = warmup == null ? files : warmup;
    if (warmupFiles < 0) {
      throw new IllegalArgumentException(
          "--warmup " + warmupFiles + " is negative (0: no warm-up)");
    }
    int perClient = files / clients;
    int total = perClient * clients;
    SteadyState steady = SteadyState.of(warmupPasses);
    String run = dir + "/run-" + ProcessHandle.current().pid();
    String who =
        threads * clients + " threads" + (clients > 1 ? " in " + clients + " clients" : "");
    try (TesseraFileSystem fs = cluster.connect();
        MetaClients all = clients()) {
      if (warmupFiles > 0) {
        int warmPerClient = Math.max(warmupFiles / clients, threads);
        steady.warmUp(
            () -> {
              String pass = run + "/warmup-" + (steady.rates().size() + 1);
              all.prepare(pass, false);
              double rate =
                  (double) warmPerClient
                      * clients
                      / all.phase(MetaWorkload.Op.CREATE, pass, false, warmPerClient);
              all.phase(MetaWorkload.Op.STAT, pass, false, warmPerClient);
              return rate;
            });
        out.printf(
            Locale.ROOT,
            "warm-up, untimed: %d pass(es) of %d files, creates %s ops/s%n",
            steady.rates().size(),
            warmPerClient * clients,
            steady.ratesText());
      }
      for (boolean own : new boolean[] {false, true}) {
        String where = run + (own ? "/unique" : "/shared");
        all.prepare(where, own);
        String label = own ? ", a directory per thread" : "";
        String tail =
            own
                ? String.format(Locale.ROOT, "%d files, %s, a directory each", total, who)
                : String.format(Locale.ROOT, "%d files, %s", total, who);
        for (MetaWorkload.Op op : MetaWorkload.Op.values()) {
          double seconds = all.phase(op, where, own, perClient);
          out.printf(
              Locale.ROOT,
              "%-" + (own ? 34 : 8) + "s %.0f ops/s (%s, %.2f s)%n",
              NAMES.get(op) + label + ":",
              total / seconds,
              tail,
              seconds);
        }
        out.flush();
      }
      fs.delete(run, true);
      return 0;
    }
  }

  private static final Map<MetaWorkload.Op, String> NAMES =
      Map.of(
          MetaWorkload.Op.CREATE, "creates",
          MetaWorkload.Op.STAT, "stats",
          MetaWorkload.Op.REMOVE, "removes");

  /** This process's threads, or {@code --clients} processes running {@code bench meta-client}. */
  private MetaClients clients() throws Exception {
    if (clients == 1) {
      return new MetaClients.InProcess(
          new MetaWorkload(MetaWorkload.connections(cluster::connect, threads)));
    }
    String meta = cluster.metaAddresses();
    List<String> forwarded = cluster.forwardedOptions();
    List<String> launcher = ProcessCluster.javaLauncher(List.of("-Xmx512m", "-XX:+UseSerialGC"));
    return new MetaClients.Processes(
        clients,
        i -> {
          List<String> cmd = new ArrayList<>(launcher);
          cmd.addAll(
              List.of(
                  "bench",
                  "meta-client",
                  "--meta",
                  meta,
                  "--threads",
                  String.valueOf(threads),
                  "--client",
                  String.valueOf(i)));
          cmd.addAll(forwarded);
          return cmd;
        });
  }
}
