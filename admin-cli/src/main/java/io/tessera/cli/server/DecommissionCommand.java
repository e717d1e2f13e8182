package io.tessera.cli.server;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.Tessera;
import io.tessera.cli.options.PositiveDuration;
import io.tessera.cli.recover.RecoverStatusCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.cluster.ServerIds;
import io.tessera.common.config.DataSize;
import io.tessera.common.config.Durations;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera server decommission ID}: drain a data server so that it may be removed. */
@Command(
    name = "decommission",
    mixinStandardHelpOptions = true,
    description = {
      "Drain a data server: it takes no new files, and recovery on the meta leader moves every unit it "
          + "holds to another server (one outside that file's servers, with the most free space), at up to "
          + "tessera.meta.rebuild-rate. It keeps serving meanwhile; writers of a file wait while that file's units move "
          + "(while clients are busy, files are locked at most tessera.meta.rebuild-lock-share-under-load of the time).",
      "When it is 'retired' (tessera cluster status) no file needs it and it may be stopped.",
      "A data server DOWN for longer than tessera.meta.replace-after is drained the same way without asking."
    })
public final class DecommissionCommand extends ConnectedCommand {
  @Parameters(
      paramLabel = "ID",
      description = "the data server's id, as tessera cluster status lists it")
  String server;

  @Option(
      names = "--wait",
      description = "follow the drain until the server is retired, printing progress")
  boolean waitUntilRetired;

  @Option(
      converter = PositiveDuration.class,
      names = "--wait-timeout",
      defaultValue = "1h",
      paramLabel = "DURATION",
      description =
          "with --wait: give up waiting after this long (the drain goes on); default ${DEFAULT-VALUE}")
  Duration waitTimeout;

  @Override
  protected void checkArguments() {
    ServerIds.requireValid(server);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    out().println(fs.admin().decommission(server));
    if (!waitUntilRetired) {
      out()
          .println(
              "Follow it with `tessera recover status`; it is done when `tessera cluster status` shows "
                  + server
                  + " retired.");
      return 0;
    }
    long deadline = System.nanoTime() + waitTimeout.toNanos();
    String last = "";
    while (System.nanoTime() - deadline < 0) {
      ClusterStatus s = fs.admin().status();
      Optional<ClusterStatus.DataServer> d =
          s.dataServers().stream().filter(x -> x.id().equals(server)).findFirst();
      if (d.isPresent() && "retired".equals(d.get().state())) {
        out()
            .println(
                server
                    + " is retired: every file has its units on other servers; it may be stopped.");
        return 0;
      }
      Optional<ClusterStatus.Rebuild> r =
          s.recovery().rebuilds().stream()
              .filter(x -> x.draining() && x.server().equals(server))
              .findFirst();
      String line =
          r.map(
                  x ->
                      String.format(
                          Locale.ROOT,
                          "%s: %d files (%s) left to move, %s%s",
                          server,
                          x.filesLeft(),
                          DataSize.format(x.bytesLeft()),
                          RecoverStatusCommand.mbPerS(x.bytesPerSecond()),
                          x.lastError().isEmpty() ? "" : "; last failure: " + x.lastError()))
              .orElse(server + ": " + d.map(ClusterStatus.DataServer::state).orElse("unknown"));
      if (!line.equals(last)) {
        out().println(line);
        out().flush();
        last = line;
      }
      Thread.sleep(1000);
    }
    err()
        .println(
            "Still draining after "
                + Durations.format(waitTimeout)
                + "; it goes on (see tessera recover status).");
    return Tessera.EXIT_FAILED;
  }
}
