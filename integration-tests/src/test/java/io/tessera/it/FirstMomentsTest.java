package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A put issued as soon as the cluster answered, before every data server had reported to the meta
 * leader, failed: "layout 6+0 needs 6 live data servers with free space; 0 are available". A client
 * waits for the servers a layout needs, within its timeout, as it waits for a leader.
 */
class FirstMomentsTest {
  @Test
  void aFileCreatedTheMomentTheClusterStartsWaitsForItsServersToReport(@TempDir Path dir)
      throws Exception {
    ClusterPlan plan = new ClusterPlan(dir, 1, 3, TestPorts.freeBase(30));
    try (InProcessCluster cluster = InProcessCluster.start(plan, Config.of(Map.of()));
        TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig());
        TesseraFile f = fs.createFile("/first", CreateOptions.defaults())) {
      assertThat(f.layout().toString())
          .as("the safe default three servers hold")
          .startsWith("RS 2+1");
      f.write(0, new byte[] {1, 2, 3}, 0, 3);
      assertThat(fs.stat("/first").size()).isEqualTo(3);
    }
  }
}
