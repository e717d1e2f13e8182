package io.tessera.client.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The console of a local cluster said "368.5 GiB free of 1.5 TiB": six data servers on one disk,
 * the disk counted six times.
 */
class ClusterStatusTest {
  private static ClusterStatus.DataServer server(String id, String state, String filesystem) {
    return new ClusterStatus.DataServer(
        id, "127.0.0.1:1", state, 1000, 400, 10, 0, 0, 0, 0, false, 0, "", 0, 0, filesystem);
  }

  private static ClusterStatus.Space space(ClusterStatus.DataServer... servers) {
    return new ClusterStatus(
            List.of(), List.of(servers), 1, new ClusterStatus.Recovery(List.of(), 0, 0), 0)
        .space();
  }

  @Test
  void dataServersOnOneFilesystemCountItsSpaceOnce() {
    assertThat(space(server("ds-1", "up", "m:2049"), server("ds-2", "down", "m:2049")))
        .isEqualTo(new ClusterStatus.Space(1000, 400, 1));
  }

  @Test
  void serversOnFilesystemsOfTheirOwnOrUnknownOnesCountEach() {
    assertThat(
            space(
                server("ds-1", "up", "m:1"),
                server("ds-2", "up", "other:1"),
                server("ds-3", "up", ""),
                server("ds-4", "up", "")))
        .isEqualTo(new ClusterStatus.Space(4000, 1600, 4));
  }

  @Test
  void aRetiredServersDiskIsNoLongerTheClusters() {
    assertThat(space(server("ds-1", "up", "a"), server("ds-2", "retired", "b")))
        .isEqualTo(new ClusterStatus.Space(1000, 400, 1));
  }
}
