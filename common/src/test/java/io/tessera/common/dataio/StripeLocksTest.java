package io.tessera.common.dataio;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * On a loaded cluster a write's phases wait in queues for longer than a quiet cluster's lease: the
 * locks a writer asks for next cover twice the longest it recently held them, up to four times its
 * configured lease, instead of lapsing under every write.
 */
class StripeLocksTest {
  @Test
  void aWriteThatHeldItsLocksLongTeachesTheNextLocksALongerLease() {
    StripeLocks locks = new StripeLocks(Duration.ofSeconds(30));
    assertThat(locks.lock(1, 0, 1).getLeaseMs()).isEqualTo(30_000);
    locks.held(Duration.ofSeconds(10).toNanos());
    assertThat(locks.lock(1, 0, 1).getLeaseMs())
        .as("a quick write changes nothing")
        .isEqualTo(30_000);
    locks.held(Duration.ofSeconds(25).toNanos());
    assertThat(locks.lock(1, 1, 1).getLeaseMs()).as("twice 25 s").isEqualTo(50_000);
    locks.held(Duration.ofMinutes(5).toNanos());
    assertThat(locks.lock(1, 2, 1).getLeaseMs()).as("at most four leases").isEqualTo(120_000);
  }
}
