package io.tessera.cli.recover;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.admin.ClusterStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecoverStatusCommandTest {
  private static ClusterStatus.DataServer server(String id, String state) {
    return new ClusterStatus.DataServer(
        id, "127.0.0.1:1", state, 0, 0, 0, 0, 0, 0, 0, false, 0, "", 0, 0, "");
  }

  private static ClusterStatus status(
      List<ClusterStatus.DataServer> servers, List<ClusterStatus.Rebuild> rebuilds) {
    return new ClusterStatus(List.of(), servers, 1, new ClusterStatus.Recovery(rebuilds, 0, 0), 0);
  }

  private static String rebuilds(ClusterStatus.Rebuild... rows) {
    StringWriter out = new StringWriter();
    RecoverStatusCommand.printRebuilds(
        new PrintWriter(out, true), new ClusterStatus.Recovery(List.of(rows), 0, 0));
    return out.toString();
  }

  /** A rebuild that had finished still showed as a row with 0 left for a minute. */
  @Test
  void aFinishedRebuildIsNoneWithWhatItDidNotARowWithNothingLeft() {
    assertThat(rebuilds(new ClusterStatus.Rebuild("ds-3", 0, 0, 12, 48L << 20, 0, 0, "", false)))
        .isEqualTo("Rebuilds: none; finished lately: ds-3 (12 files, 48 MiB)\n");
    assertThat(
            rebuilds(
                new ClusterStatus.Rebuild("ds-3", 0, 0, 12, 48L << 20, 0, 0, "", false),
                new ClusterStatus.Rebuild("ds-4", 5, 5L << 20, 1, 1L << 20, 1e6, 0, "", false)))
        .contains("ds-4", "  finished lately: ds-3")
        .doesNotContain("Rebuilds: none");
  }

  /** `cluster status` told the user to see `tessera cluster status`. */
  @Test
  void serversNotUpAreNamedNotReferredToAnotherCommand() {
    String line =
        RecoverStatusCommand.redundancy(
            status(
                List.of(server("ds-1", "up"), server("ds-2", "down"), server("ds-3", "retired")),
                List.of()));
    assertThat(line)
        .startsWith("1 data server(s) not up (ds-2): their files are read around them")
        .doesNotContain("tessera cluster status");
  }
}
