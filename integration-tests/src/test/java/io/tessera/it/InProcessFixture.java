package io.tessera.it;

import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** A whole cluster in this JVM with a client connected to it, for a test class's lifetime. */
final class InProcessFixture implements AutoCloseable {
  final ClusterPlan plan;
  final InProcessCluster cluster;
  final TesseraFileSystem fs;

  private InProcessFixture(ClusterPlan plan, InProcessCluster cluster, TesseraFileSystem fs) {
    this.plan = plan;
    this.cluster = cluster;
    this.fs = fs;
  }

  /**
   * Starts {@code meta} replicas and {@code data} data servers in {@code dir} and waits until they
   * serve.
   */
  static InProcessFixture start(Path dir, int meta, int data) throws Exception {
    ClusterPlan plan = new ClusterPlan(dir, meta, data, TestPorts.freeBase(30));
    InProcessCluster cluster = InProcessCluster.start(plan, Config.of(Map.of()));
    try {
      cluster.awaitReady(Duration.ofSeconds(60));
      return new InProcessFixture(plan, cluster, TesseraFileSystem.connect(plan.clientConfig()));
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
  }

  @Override
  public void close() throws Exception {
    fs.close();
    cluster.close();
  }
}
