package io.tessera.cli.server;

import io.tessera.common.cluster.ClusterFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code tessera server restart ID}: starts a stopped server of a local cluster again, from its
 * cmd.
 */
@Command(
    name = "restart",
    mixinStandardHelpOptions = true,
    description = {
      "Start a server of a local cluster again (after it was killed or stopped), with the command "
          + "line cluster.json keeps for it (cmd), in the background, its output appended to <dir>/logs/<id>.log.",
      "Refused while that server still runs. Waits until it listens on its port."
    })
public final class RestartCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      paramLabel = "ID",
      description = "the server, as cluster.json names it (m1, ds-4, proxy-ds-4, ...)")
  String id;

  @Option(
      names = "--dir",
      defaultValue = "tessera-data",
      description = "the cluster's directory (default: " + "${DEFAULT-VALUE})")
  Path dir;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    LocalServers servers = new LocalServers(dir);
    ClusterFile.Node node = servers.node(id);
    if (LocalServers.running(node).isPresent()) {
      throw new IllegalStateException(
          id
              + " is running (PID "
              + node.pid()
              + "); stop it first (kill -TERM "
              + node.pid()
              + "), or restart every server in turn with tessera cluster rolling-restart");
    }
    long pid = servers.start(node);
    out.printf("%s restarted (PID %d); log: %s%n", id, pid, servers.log(id));
    return 0;
  }
}
