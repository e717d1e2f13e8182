package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.Config;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The network partition of the recovery issue: every server in a network namespace of its own, the
 * meta leader and one data server cut off together from everything else (this client included)
 * while two writers go on; the other side elects a leader, finds the data server down and writes
 * around it; after the partition heals the cut-off server recovers, the old leader rejoins, and not
 * one acknowledged byte is lost. Skipped where namespaces cannot be made (not root); CI runs as
 * root.
 */
class PartitionProcessTest {
  static final Duration HEARTBEAT = Duration.ofMillis(500);
  static final Duration TIMEOUT = Duration.ofSeconds(2);
  static final Duration LIMIT = Duration.ofSeconds(120);

  @Test
  void theLeaderCutOffWithADataServerLosesNothingAndTheClusterHealsWhenTheLinkReturns()
      throws Exception {
    assumeTrue(NamespaceNetwork.available(), "network namespaces need root and iproute2");
    ClusterPlan probe = new ClusterPlan(TestDirs.fresh("partition"), 3, 9, TestPorts.freeBase(50));
    List<String> ids = new ArrayList<>(probe.metaPeers().stream().map(p -> p.id()).toList());
    ids.addAll(probe.dataIds());
    try (NamespaceNetwork net = new NamespaceNetwork(ids)) {
      ClusterPlan plan = new ClusterPlan(probe.dir(), 3, 9, probe.portBase(), net.hosts());
      try (ProcessCluster cluster =
          ProcessCluster.start(
              plan,
              ServerLaunchers.defaults(),
              List.of(
                  "-Dtessera.meta.data-server-timeout=" + TIMEOUT.toMillis() + "ms",
                  "-Dtessera.data.heartbeat-interval=" + HEARTBEAT.toMillis() + "ms",
                  "-Dtessera.meta.heartbeat-interval=" + HEARTBEAT.toMillis() + "ms"),
              net::wrapper)) {
        cluster.awaitReady(LIMIT);
        run(plan, net, cluster);
      }
    }
  }

  private static void run(ClusterPlan plan, NamespaceNetwork net, ProcessCluster cluster)
      throws Exception {
    Map<String, String> clientSettings =
        Map.of(
            "tessera.client.down-server-retry-after",
            "1s",
            "tessera.client.lock-lease",
            "5s",
            "tessera.client.meta",
            plan.metaAddresses(),
            "tessera.security.credentials",
            plan.adminCredentials().toString());
    try (TesseraFileSystem fs = TesseraFileSystem.connect(Config.of(clientSettings));
        Workload workload = new Workload(fs, "/partition", 6, 11)) {
      workload.start(1);
      Thread.sleep(3000);
      long cut = System.nanoTime();
      double before = workload.rate(cut - 3_000_000_000L, cut);
      String oldLeader = leader(fs);
      String island = "ds-1";
      net.partition(Set.of(oldLeader, island));

      // the other side: asked only of the replicas the client can still reach
      String others =
          plan.metaPeers().stream()
              .filter(p -> !p.id().equals(oldLeader))
              .map(p -> p.clientAddress())
              .collect(Collectors.joining(","));
      try (TesseraFileSystem majority =
          TesseraFileSystem.connect(
              plan.clientConfig().with(ClientConfigKeys.Cluster.META, others))) {
        await(
            "a new leader on the majority side",
            () -> {
              String l = leader(majority);
              return !l.isEmpty() && !l.equals(oldLeader);
            });
        long newLeader = System.nanoTime();
        await(
            island + " found down by the new leader", () -> state(majority, island).equals("down"));
        long detected = System.nanoTime();
        Thread.sleep(15_000); // writes go on around the island
        long healAt = System.nanoTime();
        double during = workload.rate(detected, healAt);
        net.heal();
        await("full redundancy after the partition", () -> healed(cluster, majority));
        long healed = System.nanoTime();
        workload.stopWriters();
        long lost = workload.verify();
        ClusterWatch.awaitHealthy(fs, workload.paths(), LIMIT);
        String row =
            String.format(
                Locale.ROOT,
                "| meta leader %s + %s partitioned from the rest (network namespaces) "
                    + "| 1 | %d | %d (new leader %d) | %d (%d after the heal) | %.1f | %.1f | %.2f | partition held %d ms; "
                    + "writes %.1f MB/s in its first 5 s, %.1f MB/s in the last 10 s |%n",
                oldLeader,
                island,
                lost,
                (detected - cut) / 1_000_000,
                (newLeader - cut) / 1_000_000,
                (healed - cut) / 1_000_000,
                (healed - healAt) / 1_000_000,
                before / 1e6,
                during / 1e6,
                during / before,
                (healAt - cut) / 1_000_000,
                workload.rate(cut, cut + 5_000_000_000L) / 1e6,
                workload.rate(healAt - 10_000_000_000L, healAt) / 1e6);
        System.out.print(row);
        Files.writeString(Path.of("target", "partition-scenario.md"), row);
        assertThat(lost).as("acknowledged bytes lost across the partition").isZero();
        assertThat(state(majority, island)).isEqualTo("up");
      }
    }
  }

  private static String leader(TesseraFileSystem fs) {
    return ClusterWatch.leader(fs);
  }

  private static String state(TesseraFileSystem fs, String id) {
    return ClusterWatch.state(fs, id);
  }

  /** Healed, and the old leader back in touch with the new one. */
  private static boolean healed(ProcessCluster cluster, TesseraFileSystem fs) {
    try {
      return ClusterWatch.healed(cluster, fs)
          && fs.admin().status().replicas().stream()
              .allMatch(
                  r ->
                      r.leader()
                          || (r.lastContactMillisAgo() >= 0 && r.lastContactMillisAgo() < 3000));
    } catch (Exception e) {
      return false;
    }
  }

  private static void await(String what, BooleanSupplier condition) throws Exception {
    ClusterWatch.await(what, condition, LIMIT);
  }
}
