package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.it.InProcessCli;
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
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A cluster spread over hosts of its own, as on machines: every server in a network namespace with
 * its own address, listening on every address there and announcing the one the others reach; this
 * process is a client host of its own. What a user does on a new cluster must work as on one
 * machine: put and get, a snapshot read back after the file changed, a data server SIGKILLed and
 * rebuilt, fsck clean. Skipped where namespaces cannot be made (not root); CI runs as root.
 */
class MultiHostProcessTest {
  static final Duration LIMIT = Duration.ofSeconds(120);

  @Test
  void aClusterOverSeveralHostsServesWhatAUserDoesOnOne() throws Exception {
    assumeTrue(NamespaceNetwork.available(), "network namespaces need root and iproute2");
    ClusterPlan probe = new ClusterPlan(TestDirs.fresh("multi-host"), 3, 6, TestPorts.freeBase(40));
    List<String> ids = new ArrayList<>(probe.metaPeers().stream().map(p -> p.id()).toList());
    ids.addAll(probe.dataIds());
    try (NamespaceNetwork net = new NamespaceNetwork(ids)) {
      ClusterPlan plan = new ClusterPlan(probe.dir(), 3, 6, probe.portBase(), net.hosts());
      try (ProcessCluster cluster =
              ProcessCluster.start(
                  plan, ServerLaunchers.defaults(), ClusterWatch.QUICK_DETECTION, net::wrapper);
          TesseraFileSystem fs =
              TesseraFileSystem.connect(
                  plan.clientConfig()
                      .with(ClientConfigKeys.Failures.DOWN_SERVER_RETRY_AFTER, "1s"))) {
        cluster.awaitReady(LIMIT);
        use(plan, net, cluster, fs);
      }
    }
  }

  private static void use(
      ClusterPlan plan, NamespaceNetwork net, ProcessCluster cluster, TesseraFileSystem fs)
      throws Exception {
    // every data server announces its own host's address, not the 0.0.0.0 it listens on
    for (ClusterStatus.DataServer ds : fs.admin().status().dataServers()) {
      assertThat(ds.address()).isEqualTo(net.ip(ds.id()) + ":" + plan.dataPort(ds.id()));
    }
    Path work = Files.createDirectories(plan.dir().resolve("client"));
    byte[] first = random(6 << 20, 1);
    byte[] second = random(6 << 20, 2);
    Path in = Files.write(work.resolve("first.bin"), first);
    cli(plan, "fs", "put", "-q", "--ec", "4+2", in.toString(), "/hosts/data.bin");
    assertThat(get(plan, work, "/hosts/data.bin")).isEqualTo(first);

    cli(plan, "snapshot", "create", "before-change");
    cli(plan, "fs", "put", "-q", "-f", Files.write(in, second).toString(), "/hosts/data.bin");
    assertThat(get(plan, work, "/.snapshots/before-change/hosts/data.bin")).isEqualTo(first);
    assertThat(get(plan, work, "/hosts/data.bin")).isEqualTo(second);

    String victim = fs.stat("/hosts/data.bin").layout().servers().get(0);
    cluster.signal(victim, "KILL");
    ClusterWatch.await(
        victim + " down", () -> ClusterWatch.state(fs, victim).equals("down"), LIMIT);
    assertThat(get(plan, work, "/hosts/data.bin")).as("read around " + victim).isEqualTo(second);
    cluster.restart(victim);
    ClusterWatch.await("full redundancy", () -> ClusterWatch.healed(cluster, fs), LIMIT);
    ClusterWatch.awaitHealthy(fs, List.of("/hosts/data.bin"), LIMIT);
    cli(plan, "fsck", "/");
    assertThat(get(plan, work, "/hosts/data.bin")).isEqualTo(second);
  }

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] get(ClusterPlan plan, Path work, String path) throws Exception {
    Path out = work.resolve("got.bin");
    Files.deleteIfExists(out);
    cli(plan, "fs", "get", "-q", path, out.toString());
    return Files.readAllBytes(out);
  }

  /** A tessera command as the cluster's admin, from this (client) host; fails unless it exits 0. */
  private static String cli(ClusterPlan plan, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--meta", plan.metaAddresses()));
    InProcessCli.Result r = InProcessCli.run(plan.adminCredentials(), all.toArray(String[]::new));
    assertThat(r.code()).as(String.join(" ", args) + ": " + r.out() + r.err()).isZero();
    return r.out();
  }
}
