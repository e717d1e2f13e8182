package io.tessera.it.recovery;

import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.localcluster.ProcessCluster;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the failure tests ask of a cluster while they break it: who leads, a server's state, whether
 * it healed.
 */
final class ClusterWatch {
  private ClusterWatch() {}

  /**
   * Server settings that find a silent data server within seconds (heartbeats every 500 ms, down
   * after 2 s), so a test's kill is noticed as quickly as it would be watched for.
   */
  static final List<String> QUICK_DETECTION =
      List.of(
          "-Dtessera.meta.data-server-timeout=2s",
          "-Dtessera.data.heartbeat-interval=500ms",
          "-Dtessera.meta.heartbeat-interval=500ms");

  /** The meta leader's id as {@code fs} sees it ("" while it cannot tell). */
  static String leader(TesseraFileSystem fs) {
    try {
      return fs.admin().status().replicas().stream()
          .filter(ClusterStatus.Replica::leader)
          .map(ClusterStatus.Replica::id)
          .findFirst()
          .orElse("");
    } catch (Exception e) {
      return "";
    }
  }

  /** A data server's state ("up", "down", "recovering", ...; "?" while it cannot tell). */
  static String state(TesseraFileSystem fs, String id) {
    try {
      return fs.admin().status().dataServers().stream()
          .filter(d -> d.id().equals(id))
          .map(ClusterStatus.DataServer::state)
          .findFirst()
          .orElse("?");
    } catch (Exception e) {
      return "?";
    }
  }

  /** Every process alive, a leader, every data server up with nothing stale. */
  static boolean healed(ProcessCluster cluster, TesseraFileSystem fs) {
    try {
      if (cluster.processes().values().stream().anyMatch(p -> !p.isAlive())) {
        return false;
      }
      ClusterStatus s = fs.admin().status();
      return s.replicas().stream().anyMatch(ClusterStatus.Replica::leader)
          && s.dataServers().stream().allMatch(d -> d.up() && d.filesToRebuild() == 0);
    } catch (Exception e) {
      return false;
    }
  }

  /** Polls until the condition holds; fails the test with {@code what} after {@code limit}. */
  static void await(String what, BooleanSupplier condition, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("no " + what + " within " + limit);
      }
      Thread.sleep(50);
    }
  }

  /**
   * Waits until every path checks HEALTHY with its parity verified (a client may still skip a
   * server it saw fail a moment ago, for tessera.client.down-server-retry-after).
   */
  static void awaitHealthy(TesseraFileSystem fs, Iterable<String> paths, Duration limit)
      throws InterruptedException {
    for (String path : paths) {
      await(
          path + " HEALTHY with parity verified",
          () -> {
            try {
              return fs.admin().check(path, true).verdict().equals("HEALTHY");
            } catch (Exception e) {
              return false;
            }
          },
          limit);
    }
  }
}
