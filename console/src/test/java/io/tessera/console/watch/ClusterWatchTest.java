package io.tessera.console.watch;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.admin.ClusterStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the overview's charts and event list are made of: one sample per status, summed over the
 * servers that count, and an event for each change an operator would want to hear about.
 */
class ClusterWatchTest {
  private static ClusterStatus.DataServer server(String id, String state, long bytesPerS) {
    return new ClusterStatus.DataServer(
        id,
        "127.0.0.1:1",
        state,
        1000,
        400,
        100,
        5,
        0,
        0,
        0,
        false,
        0,
        "",
        bytesPerS,
        bytesPerS / 1000,
        "");
  }

  private static ClusterStatus status(String leader, ClusterStatus.DataServer... servers) {
    return new ClusterStatus(
        List.of(
            new ClusterStatus.Replica("m1", "a", leader.equals("m1"), 0),
            new ClusterStatus.Replica("m2", "b", leader.equals("m2"), 0)),
        List.of(servers),
        7,
        new ClusterStatus.Recovery(List.of(), 0, 0),
        0);
  }

  @Test
  void samplesSumTheServersThatStillCount() {
    ClusterWatch w = new ClusterWatch(null);
    w.record(
        status(
            "m1",
            server("ds-1", "up", 5000),
            server("ds-2", "down", 0),
            server("ds-3", "retired", 9000)),
        1000);
    ClusterWatch.Sample s = w.samples().get(0);
    assertThat(s.bytesPerSecond()).isEqualTo(5000);
    assertThat(s.capacityBytes()).isEqualTo(2000);
    assertThat(s.serversUp()).isEqualTo(1);
    assertThat(s.servers()).isEqualTo(3);
  }

  @Test
  void stateChangesNewServersAndLeaderChangesBecomeEventsNewestFirst() {
    ClusterWatch w = new ClusterWatch(null);
    w.record(status("m1", server("ds-1", "up", 0)), 1);
    w.record(status("m1", server("ds-1", "up", 0)), 2);
    assertThat(w.events(10)).isEmpty();
    w.record(status("m1", server("ds-1", "down", 0), server("ds-2", "up", 0)), 3);
    w.record(status("m2", server("ds-1", "recovering", 0), server("ds-2", "up", 0)), 4);
    assertThat(w.events(10))
        .extracting(ClusterWatch.Event::message)
        .containsExactly("leader is now m2", "down -> recovering", "joined, up", "up -> down");
  }

  @Test
  void onlyTheLastTenMinutesOfSamplesAreKept() {
    ClusterWatch w = new ClusterWatch(null);
    for (int i = 0; i < ClusterWatch.KEPT_SAMPLES + 50; i++) {
      w.record(status("m1", server("ds-1", "up", i)), i);
    }
    assertThat(w.samples()).hasSize(ClusterWatch.KEPT_SAMPLES);
    assertThat(w.samples().get(0).bytesPerSecond()).isEqualTo(50);
  }
}
