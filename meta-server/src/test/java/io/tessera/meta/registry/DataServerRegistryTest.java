package io.tessera.meta.registry;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.HeartbeatRequestProto;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What a replica that takes over as leader knows about the data servers and their clients' load.
 */
class DataServerRegistryTest {
  private static HeartbeatRequestProto report(String id, long clientBytesPerS) {
    return HeartbeatRequestProto.newBuilder()
        .setServerId(id)
        .setAddress("127.0.0.1:1")
        .setClientBytesPerS(clientBytesPerS)
        .build();
  }

  /**
   * A follower that was told of two servers through the log (their registrations, before any client
   * wrote).
   */
  private static DataServerRegistry followerWithRegistrations() {
    DataServerRegistry r = new DataServerRegistry(Duration.ofSeconds(30));
    r.heartbeat(report("ds-1", 0));
    r.heartbeat(report("ds-2", 0));
    r.leaderChanged("m1", false, List::of);
    return r;
  }

  @Test
  void aNewLeaderDoesNotTakeTheRegistrationsLoadOfZeroForQuietClients() {
    DataServerRegistry r = followerWithRegistrations();
    assertThat(r.clientBytesPerS()).hasValue(0); // as a follower: what the log told it

    r.leaderChanged(
        "m2", true, () -> List.of("ds-1", "ds-2")); // m1 died while clients wrote 80 MB/s
    assertThat(r.live()).hasSize(2); // both servers still count as up...
    assertThat(r.clientBytesPerS()).isEmpty(); // ...but their load is not known

    r.heartbeat(report("ds-1", 40 << 20));
    assertThat(r.clientBytesPerS()).isEmpty(); // ds-2 has not reported yet
    r.heartbeat(report("ds-2", 40 << 20));
    assertThat(r.clientBytesPerS()).hasValue(80L << 20);
  }

  @Test
  void aServerFoundDownDoesNotKeepTheLoadUnknown() {
    DataServerRegistry r = new DataServerRegistry(Duration.ofSeconds(30));
    r.load(Map.of("ds-9", report("ds-9", 0))); // registered once, never heard since
    r.leaderChanged("m2", true, List::of);
    r.heartbeat(report("ds-1", 5 << 20));
    assertThat(r.live()).extracting(HeartbeatRequestProto::getServerId).containsExactly("ds-1");
    assertThat(r.clientBytesPerS()).hasValue(5L << 20);
  }

  @Test
  void losingTheLeadershipForgetsWhenItBegan() {
    DataServerRegistry r = followerWithRegistrations();
    r.leaderChanged("m2", true, () -> List.of("ds-1", "ds-2"));
    r.leaderChanged("m3", false, List::of);
    assertThat(r.clientBytesPerS()).hasValue(0); // a follower's figure, as before
  }

  @Test
  void aFreshClusterIsJoiningWhileServersItNeverKnewReportButARestartedOneIsNot() {
    DataServerRegistry fresh = new DataServerRegistry(Duration.ofSeconds(30));
    fresh.leaderChanged("m1", true, List::of);
    assertThat(fresh.joining()).as("no server yet: nothing to wait for").isFalse();
    fresh.heartbeat(report("ds-1", 0));
    assertThat(fresh.joining()).as("ds-1 just joined: others may follow").isTrue();

    DataServerRegistry restarted = new DataServerRegistry(Duration.ofSeconds(30));
    restarted.load(Map.of("ds-1", report("ds-1", 0), "ds-2", report("ds-2", 0)));
    restarted.leaderChanged("m1", true, List::of);
    restarted.heartbeat(report("ds-1", 0));
    restarted.heartbeat(report("ds-2", 0));
    assertThat(restarted.joining()).as("every server was registered before").isFalse();
  }
}
