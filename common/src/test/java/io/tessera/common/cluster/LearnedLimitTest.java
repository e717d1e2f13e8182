package io.tessera.common.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A peer that once answered after a long silence (its machine overloaded) is given that much more
 * time before it is given up; the allowance fades when it is quick again, and never passes the
 * ceiling (a call's timeout).
 */
class LearnedLimitTest {
  private static final long S = TimeUnit.SECONDS.toNanos(1);

  @Test
  void aLongSilenceThePeerEndedDoublesIntoTheLimitThenFades() {
    LearnedLimit a = new LearnedLimit(5 * S, 30 * S);
    long now = System.nanoTime();
    assertThat(a.nanos()).isEqualTo(5 * S);
    a.ended(2 * S, now);
    assertThat(a.nanos()).as("a short gap changes nothing").isEqualTo(5 * S);
    a.ended(7 * S, now);
    assertThat(a.nanos()).as("twice the 7 s the peer was heard after").isEqualTo(14 * S);
    a.ended(20 * S, now);
    assertThat(a.nanos()).as("capped by the ceiling").isEqualTo(30 * S);
    a.ended(0, now + TimeUnit.MINUTES.toNanos(1));
    assertThat(a.nanos()).as("a minute later: 20 s halved, doubled").isEqualTo(20 * S);
    a.ended(0, now + TimeUnit.MINUTES.toNanos(3));
    assertThat(a.nanos()).as("three minutes later: back to the limit").isEqualTo(5 * S);
  }
}
