package io.tessera.cli.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.cli.Tessera;
import io.tessera.client.admin.QosApp;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalCommandTest {
  @TempDir Path dir;

  @Test
  void aMetaGroupThatCouldNotSurviveWhatItsSizePromisesIsRefusedBeforeAnythingStarts() {
    for (String n : List.of("2", "4", "0", "9")) {
      StringWriter err = new StringWriter();
      Path cluster = dir.resolve("cluster-" + n);
      int code =
          Tessera.run(
              new PrintWriter(new StringWriter()),
              new PrintWriter(err, true),
              "local",
              "--dir",
              cluster.toString(),
              "--meta-replicas",
              n);

      assertThat(code).as("exit code of --meta-replicas %s", n).isEqualTo(Tessera.EXIT_USAGE);
      assertThat(err.toString()).contains("--meta-replicas " + n + ": use 1, 3, 5 or 7");
      assertThat(cluster).as("nothing made for --meta-replicas %s", n).doesNotExist();
    }
  }

  @Test
  void twoReplicasAreExplainedAsSurvivingNoFailure() {
    StringWriter err = new StringWriter();
    Tessera.run(
        new PrintWriter(new StringWriter()),
        new PrintWriter(err, true),
        "local",
        "--dir",
        dir.resolve("c").toString(),
        "--meta-replicas",
        "2");

    assertThat(err.toString()).contains("a group of 2 survives none");
  }

  @Test
  void theQosBannerOfARestartedClusterShowsTheWeightsItKeeps() {
    assertThat(LocalCommand.qosBanner(List.of()))
        .startsWith("QoS: every application at weight 1 until 'tessera qos set");
    assertThat(
            LocalCommand.qosBanner(
                List.of(
                    new QosApp("checkpoint", 16, 0, 0, true),
                    new QosApp("analytics", 0.5, 0, 0, true))))
        .startsWith(
            "QoS: checkpoint weight 16, analytics weight 0.5; every other application at"
                + " weight 1")
        .doesNotContain("every application at weight 1");
  }
}
