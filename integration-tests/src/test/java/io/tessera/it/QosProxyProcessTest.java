package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.FileCheck;
import io.tessera.localcluster.ClusterPlan;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * QoS with a proxy process in front of each data server ({@code tessera.qos.placement=proxy}): the
 * shared scenarios, and a proxy killed mid-write loses nothing.
 */
class QosProxyProcessTest extends QosScenarios {
  @Override
  ClusterPlan plan(Path dir, int base) {
    return new ClusterPlan(dir, 1, 4, base).withQos().withHttp();
  }

  @Override
  List<String> placementSettings() {
    return List.of();
  }

  @Override
  String schedulerOf(String dataId) {
    return ClusterPlan.proxyId(dataId);
  }

  @Override
  String schedulerAddress(String dataId) {
    return plan.proxyAddress(dataId);
  }

  @Test
  void aProxyKilledMidWriteLosesNothingAndParityStaysConsistent() throws Exception {
    byte[] expected = new byte[24 << 20];
    for (int i = 0; i < expected.length; i++) {
      expected[i] = (byte) (i * 31 + 7);
    }
    try (TesseraFileSystem fs = as("writer")) {
      fs.mkdirs("/qos");
      try (TesseraFile f =
          fs.createFile("/qos/killed-proxy", CreateOptions.erasure(2, 1).stripeUnit(UNIT))) {
        int half = expected.length / 2;
        f.write(0, expected, 0, half);
        String victim = ClusterPlan.proxyId(f.layout().servers().get(0));
        cluster.signal(victim, "KILL");
        f.write(half, expected, half, expected.length - half);
        cluster.restart(victim);
      }
      byte[] back = new byte[expected.length];
      try (TesseraFile f = fs.openFile("/qos/killed-proxy")) {
        f.readFully(0, back, 0, back.length);
      }
      assertThat(Arrays.equals(back, expected)).as("every byte acknowledged reads back").isTrue();
      FileCheck check = fs.admin().check("/qos/killed-proxy", true);
      assertThat(check.parityMismatches()).as("stripes whose parity disagrees").isZero();
      assertThat(check.parityVerified()).as("stripes verified").isPositive();
    }
  }
}
