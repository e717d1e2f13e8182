package io.tessera.it;

import io.tessera.localcluster.ClusterPlan;
import java.nio.file.Path;
import java.util.List;

/**
 * QoS scheduled inside each data server ({@code tessera.qos.placement=embedded}), no proxies: the
 * same shares, metrics and robustness as with proxies.
 */
class QosEmbeddedProcessTest extends QosScenarios {
  @Override
  ClusterPlan plan(Path dir, int base) {
    return new ClusterPlan(dir, 1, 4, base).withHttp();
  }

  @Override
  List<String> placementSettings() {
    return List.of("-Dtessera.qos.placement=embedded");
  }

  @Override
  String schedulerOf(String dataId) {
    return dataId;
  }

  @Override
  String schedulerAddress(String dataId) {
    return plan.dataAddress(dataId);
  }
}
