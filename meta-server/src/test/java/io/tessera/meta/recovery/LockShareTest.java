package io.tessera.meta.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Writers of a file wait while a rebuild holds its lock: while clients are busy, the rebuild's
 * locks fill no more than their share of the clock (a clock of its own: no real waiting).
 */
class LockShareTest {
  private long now;
  private final AtomicInteger percent = new AtomicInteger(30);
  private final LockShare share = new LockShare(percent::get, nanos -> now += nanos);

  @Test
  void smallFilesCopiedBackToBackUnderTheirLocksLeaveWritersTheRestOfTheClock() throws Exception {
    long locked = 0;
    for (int file = 0; file < 50; file++) {
      long held = (100 + 7 * file) * 1_000_000L;   // each copy holds its file's lock 100 ms or more
      now += held;
      locked += held;
      share.released(held);
    }
    assertThat((double) locked / now).isCloseTo(0.30, org.assertj.core.data.Offset.offset(0.001));
  }

  @Test
  void whenClientsAreQuietTheRebuildDoesNotPause() throws Exception {
    percent.set(100);
    share.released(250_000_000L);
    assertThat(now).isZero();
  }

  @Test
  void theShareFollowsTheLoadFromOneLockToTheNext() throws Exception {
    share.released(300_000_000L);
    assertThat(now).as("paused at 30%").isEqualTo(700_000_000L);
    percent.set(100);
    share.released(300_000_000L);
    assertThat(now).as("clients went quiet: no further pause").isEqualTo(700_000_000L);
  }
}
