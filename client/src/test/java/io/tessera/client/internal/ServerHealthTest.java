package io.tessera.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A data server that stays down for minutes is skipped, tried again each time its mark expires, and
 * reported once, not once per expiry: a user watching a long `put` or a benchmark saw the same
 * warning every 10 s.
 */
class ServerHealthTest {
  private final AtomicLong now = new AtomicLong();
  private final ServerHealth health = new ServerHealth(Duration.ofSeconds(10), now::get);

  @Test
  void aServerDownForLongIsRetriedAtEachExpiryAndReportedOncePerOutage() {
    assertThat(health.markDown("ds-1", "connection refused")).as("the outage starts").isTrue();
    assertThat(health.isDown("ds-1")).isTrue();

    now.addAndGet(Duration.ofSeconds(10).toNanos());
    assertThat(health.isDown("ds-1")).as("tried again once its mark expires").isFalse();
    assertThat(health.markDown("ds-1", "connection refused"))
        .as("still down: the same outage")
        .isFalse();
    assertThat(health.isDown("ds-1")).isTrue();

    health.answered("ds-2"); // another server's answer ends nothing of ds-1's
    now.addAndGet(Duration.ofSeconds(10).toNanos());
    assertThat(health.markDown("ds-1", "connection refused")).as("still down after 20 s").isFalse();

    now.addAndGet(Duration.ofSeconds(10).toNanos());
    health.answered("ds-1");
    assertThat(health.isDown("ds-1")).as("answered").isFalse();
    assertThat(health.markDown("ds-1", "connection reset"))
        .as("down again later: a new outage")
        .isTrue();
  }
}
