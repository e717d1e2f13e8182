package io.tessera.cli.server;

import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.rpc.HostPort;
import io.tessera.localcluster.ServerCommandLine;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The servers of a local cluster as its cluster.json records them: which one runs, and starting or
 * stopping one with the command line kept there ({@code tessera server restart}, {@code tessera
 * cluster rolling-restart}).
 */
public final class LocalServers {
  private final Path dir;
  private final Path file;

  /**
   * The cluster whose cluster.json is in {@code dir}.
   *
   * @throws IllegalArgumentException when there is none
   */
  public LocalServers(Path dir) {
    this.dir = dir;
    this.file = dir.resolve(ClusterFile.NAME);
    if (!Files.exists(file)) {
      throw new IllegalArgumentException(
          "no "
              + ClusterFile.NAME
              + " in "
              + dir
              + ": give the directory 'tessera local' runs the cluster in (--dir)");
    }
  }

  /** The cluster as its cluster.json lists it now. */
  public ClusterFile cluster() throws IOException {
    return ClusterFile.read(file);
  }

  /** The server called {@code id}; refused naming the ones there are. */
  public ClusterFile.Node node(String id) throws IOException {
    List<ClusterFile.Node> nodes = cluster().all();
    return nodes.stream()
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
  }

  /** The process of {@code node} if it runs (a PID reused by another program does not count). */
  public static Optional<ProcessHandle> running(ClusterFile.Node node) {
    return ProcessHandle.of(node.pid())
        .filter(ProcessHandle::isAlive)
        .filter(h -> ServerCommandLine.runs(h, node.id(), null));
  }

  /**
   * Stops {@code node} with SIGTERM (a server finishes what it was doing and closes its stores) and
   * waits until it has exited.
   */
  public static void stop(ClusterFile.Node node) throws IOException, InterruptedException {
    Optional<ProcessHandle> p = running(node);
    if (p.isEmpty()) {
      return;
    }
    p.get().destroy();
    try {
      p.get().onExit().get(60, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new IOException(
          node.id() + " (PID " + node.pid() + ") did not stop within 60 s of SIGTERM");
    }
  }

  /**
   * Starts {@code node} with its kept command line, in the background, its output appended to
   * {@code <dir>/logs/<id>.log}; records its PID and waits until it listens on its port.
   *
   * @return its PID
   */
  public long start(ClusterFile.Node node) throws IOException, InterruptedException {
    if (node.cmd() == null || node.cmd().isEmpty()) {
      throw new IllegalStateException(file + " keeps no command line for " + node.id());
    }
    Path log = dir.resolve("logs").resolve(node.id() + ".log");
    Files.createDirectories(log.getParent());
    Process p =
        new ProcessBuilder(node.cmd())
            .redirectErrorStream(true)
            .redirectOutput(Redirect.appendTo(log.toFile()))
            .redirectInput(Redirect.from(new File("/dev/null")))
            .start();
    ClusterFile.update(file, f -> f.withPid(node.id(), p.pid()));
    awaitListening(p, HostPort.parse(node.address()), log);
    return p.pid();
  }

  /** Where {@code id}'s output goes. */
  public Path log(String id) {
    return dir.resolve("logs").resolve(id + ".log");
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
