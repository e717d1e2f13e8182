package io.tessera.cli.server;

import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.rpc.HostPort;
import io.tessera.localcluster.ServerCommandLine;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.ProcessBuilder.Redirect;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
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
    Path file = dir.resolve(ClusterFile.NAME);
    if (!Files.exists(file)) {
      throw new IllegalArgumentException(
          "no "
              + ClusterFile.NAME
              + " in "
              + dir
              + ": give the directory 'tessera "
              + "local' runs the cluster in (--dir)");
    }
    ClusterFile cluster = ClusterFile.read(file);
    List<ClusterFile.Node> nodes = cluster.all();
    ClusterFile.Node node =
        nodes.stream()
            .filter(n -> n.id().equals(id))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "no server "
                            + id
                            + " in "
                            + file
                            + " (it has "
                            + String.join(", ", nodes.stream().map(ClusterFile.Node::id).toList())
                            + ")"));
    Optional<ProcessHandle> running =
        ProcessHandle.of(node.pid())
            .filter(ProcessHandle::isAlive)
            .filter(h -> ServerCommandLine.runs(h, id, null));
    if (running.isPresent()) {
      throw new IllegalStateException(
          id
              + " is running (PID "
              + node.pid()
              + "); stop it first (kill -TERM "
              + node.pid()
              + ")");
    }
    if (node.cmd() == null || node.cmd().isEmpty()) {
      throw new IllegalStateException(file + " keeps no command line for " + id);
    }
    Path log = dir.resolve("logs").resolve(id + ".log");
    Files.createDirectories(log.getParent());
    Process p =
        new ProcessBuilder(node.cmd())
            .redirectErrorStream(true)
            .redirectOutput(Redirect.appendTo(log.toFile()))
            .redirectInput(Redirect.from(new File("/dev/null")))
            .start();
    ClusterFile.update(file, f -> f.withPid(id, p.pid()));
    awaitListening(p, HostPort.parse(node.address()), log);
    out.printf("%s restarted (PID %d); log: %s%n", id, p.pid(), log);
    return 0;
  }

  private static void awaitListening(Process p, HostPort address, Path log)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + 60_000_000_000L;
    while (System.nanoTime() - deadline < 0) {
      if (!p.isAlive()) {
        throw new IOException(
            "it exited with code " + p.exitValue() + " while starting; see " + log);
      }
      try (Socket s = new Socket(address.host(), address.port())) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    throw new IOException("it did not listen on " + address + " within 60 s; see " + log);
  }
}
