package io.tessera.data.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** A data server whose clock runs 30 s ahead of the meta leader's judges tokens by the leader's. */
class LeaderClockTest {
  @Test
  void aServerAheadOfTheLeaderReadsTheLeadersTimeFromItsHeartbeatAnswers() {
    LeaderClock clock = new LeaderClock();
    long local = System.currentTimeMillis();
    // sent at local, answered 40 ms later; the leader read its clock 30 s behind ours, mid-way
    clock.learn(local + 20 - 30_000, local, local + 40);
    assertThat(clock.now()).isCloseTo(System.currentTimeMillis() - 30_000, within(1000L));
  }

  @Test
  void aLeaderThatSaysNoTimeLeavesTheServersOwnClock() {
    LeaderClock clock = new LeaderClock();
    clock.learn(0, 1, 2);
    assertThat(clock.now()).isCloseTo(System.currentTimeMillis(), within(1000L));
  }
}
