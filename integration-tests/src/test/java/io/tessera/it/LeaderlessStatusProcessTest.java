package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.cli.Tessera;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two of three meta replicas die: no leader can be elected, and an operator runs {@code cluster
 * status} to see what is left. The surviving replica answers on its own, but it never hears the
 * heartbeats that change nothing (only a leader does), so it must not report every data server as
 * silent and down: it shows them as the last leader recorded them, says it cannot tell whether they
 * are alive, and says why.
 */
class LeaderlessStatusProcessTest {
  @Test
  void withoutAMajorityClusterStatusShowsTheDataServersAsLastRecordedNotAllDown() throws Exception {
    Path dir = TestDirs.fresh("leaderless-status");
    ClusterPlan plan = new ClusterPlan(dir, 3, 2, TestPorts.freeBase(10));
    try (ProcessCluster cluster =
            ProcessCluster.start(
                plan,
                ServerLaunchers.defaults(),
                List.of("-Dtessera.meta.data-server-timeout=2000ms"));
        TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      fs.createFile("/before", CreateOptions.defaults()).close();
      ClusterStatus led = fs.admin().status();
      String leader =
          led.replicas().stream()
              .filter(ClusterStatus.Replica::leader)
              .findFirst()
              .orElseThrow()
              .id();
      String follower =
          led.replicas().stream().filter(r -> !r.leader()).findFirst().orElseThrow().id();
      assertThat(led.dataServers())
          .allSatisfy(
              d ->
                  assertThat(d.lastHeartbeatMillisAgo())
                      .as("%s: the leader knows when it last heard from it", d.id())
                      .isNotNegative());

      cluster.signal(leader, "KILL");
      cluster.signal(follower, "KILL");
      ClusterStatus alone =
          fs.admin().status(); // retried until the survivor gives up on the old leader

      assertThat(alone.replicas()).noneMatch(ClusterStatus.Replica::leader);
      assertThat(alone.dataServers())
          .hasSize(2)
          .allSatisfy(
              d -> {
                assertThat(d.state())
                    .as("%s as the last leader recorded it", d.id())
                    .isEqualTo("up");
                assertThat(d.lastHeartbeatMillisAgo())
                    .as("%s: when it was last heard, unknown without a leader", d.id())
                    .isEqualTo(-1L);
              });
      StringWriter out = new StringWriter();
      int code =
          Tessera.run(
              new PrintWriter(out, true),
              new PrintWriter(new StringWriter(), true),
              "cluster",
              "status",
              "--meta",
              plan.metaAddresses(),
              "--credentials",
              plan.adminCredentials().toString());
      assertThat(code).isZero();
      assertThat(out.toString())
          .contains("No meta leader")
          .contains("unknown")
          .doesNotContain("DOWN")
          .doesNotContain("follower");
    }
  }
}
