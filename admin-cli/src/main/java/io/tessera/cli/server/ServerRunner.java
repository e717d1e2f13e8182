package io.tessera.cli.server;

import io.tessera.common.cluster.ClusterFile;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shared by the server commands: configuration, cluster.json upkeep, and a clean stop on SIGTERM.
 */
final class ServerRunner {
  private static final Logger LOG = LoggerFactory.getLogger(ServerRunner.class);

  private ServerRunner() {}

  /** Records this process's PID in cluster.json so operators and tests find it after a restart. */
  static void recordPid(Path clusterFile, String id) {
    if (clusterFile == null || !Files.exists(clusterFile)) {
      return;
    }
    try {
      ClusterFile.update(clusterFile, f -> f.withPid(id, ProcessHandle.current().pid()));
    } catch (IOException e) {
      LOG.warn("Could not record this server's PID in {}: {}", clusterFile, e.getMessage());
    }
  }

  /** Blocks until SIGTERM / Ctrl-C, then closes the HTTP side, then the server. */
  static void runUntilStopped(Closeable server, Closeable http, String what) {
    runUntilStopped(
        () -> {
          try {
            http.close();
          } finally {
            server.close();
          }
        },
        what);
  }

  /** Blocks until SIGTERM / Ctrl-C, then closes the server. */
  static void runUntilStopped(Closeable server, String what) {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    server.close();
                  } catch (IOException | RuntimeException e) {
                    LOG.warn("{} did not stop cleanly: {}", what, e.getMessage());
                  } finally {
                    stopped.countDown();
                  }
                },
                "shutdown"));
    try {
      stopped.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
