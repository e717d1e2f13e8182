package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An operator drains a data server, stops it and removes it: nothing a user wrote goes missing. */
class ServerRemovalTest {
  @TempDir Path dir;

  @Test
  void aDecommissionedStoppedAndRemovedServerLeavesEveryFileAndSnapshotReadable() throws Exception {
    ClusterPlan plan = new ClusterPlan(dir, 1, 4, TestPorts.freeBase(30));
    try (InProcessCluster cluster =
            InProcessCluster.start(
                plan,
                Config.of(
                    Map.of(
                        "tessera.meta.data-server-timeout",
                        "2s",
                        "tessera.data.heartbeat-interval",
                        "200ms",
                        "tessera.meta.heartbeat-interval",
                        "200ms")));
        TesseraFileSystem fs = waitReady(cluster, plan)) {
      byte[] data = new byte[3_000_000];
      new Random(3).nextBytes(data);
      try (TesseraFile f =
          fs.createFile("/kept.bin", CreateOptions.erasure(2, 1).stripeUnit(65536))) {
        f.write(0, data, 0, data.length);
      }
      fs.admin().snapshots().create("before");
      String leaving = fs.stat("/kept.bin").layout().servers().get(0);

      assertThatThrownBy(() -> fs.admin().removeServer(leaving, false))
          .hasMessageContaining("only a retired server");
      fs.admin().decommission(leaving);
      await().atMost(Duration.ofSeconds(60)).until(() -> state(fs, leaving).equals("retired"));
      assertThatThrownBy(() -> fs.admin().removeServer(leaving, false))
          .hasMessageContaining("still sends heartbeats");
      cluster.stopData(leaving);
      await()
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .until(
              () -> {
                try {
                  fs.admin().removeServer(leaving, false);
                  return false;
                } catch (Exception e) {
                  return e.getMessage().contains("snapshots taken before it retired (before)");
                }
              });
      fs.admin().removeServer(leaving, true);

      assertThat(fs.admin().status().dataServers())
          .extracting(ClusterStatus.DataServer::id)
          .doesNotContain(leaving)
          .hasSize(3);
      assertThat(fs.stat("/kept.bin").layout().servers()).doesNotContain(leaving);
      try (TesseraFileSystem later = TesseraFileSystem.connect(plan.clientConfig())) {
        // a client that never knew the server's address
        assertThat(readAll(later, "/kept.bin", data.length))
            .as("the live file moved off it")
            .isEqualTo(data);
        assertThat(readAll(later, "/.snapshots/before/kept.bin", data.length))
            .as("the snapshot still names it: its reads decode around it")
            .isEqualTo(data);
      }
    }
  }

  private static TesseraFileSystem waitReady(InProcessCluster cluster, ClusterPlan plan)
      throws Exception {
    cluster.awaitReady(Duration.ofSeconds(60));
    return TesseraFileSystem.connect(plan.clientConfig());
  }

  private static String state(TesseraFileSystem fs, String server) throws Exception {
    return fs.admin().status().dataServers().stream()
        .filter(d -> d.id().equals(server))
        .findFirst()
        .map(ClusterStatus.DataServer::state)
        .orElse("gone");
  }

  private static byte[] readAll(TesseraFileSystem fs, String path, int length) throws Exception {
    byte[] back = new byte[length];
    try (TesseraFile f = fs.openFile(path)) {
      f.readFully(0, back, 0, length);
    }
    return back;
  }
}
