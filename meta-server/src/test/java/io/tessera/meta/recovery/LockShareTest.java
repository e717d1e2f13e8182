package io.tessera.meta.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Writers of a file wait while a rebuild holds its lock: while clients are busy, the rebuild's
 * locks that writers waited on fill no more than their share of the clock (a clock of its own: no
 * real waiting).
 */
class LockShareTest {
  private long now;
  private final AtomicInteger percent = new AtomicInteger(30);
  private final LockShare share = new LockShare(percent::get, () -> now, nanos -> now += nanos);

  @Test
  void smallFilesCopiedBackToBackUnderTheirLocksLeaveWritersTheRestOfTheClock() throws Exception {
    long locked = 0;
    for (int file = 0; file < 50; file++) {
      long lockedSince = share.beforeLocking();
      long held = (100 + 7 * file) * 1_000_000L;   // each copy holds its file's lock 100 ms or more
      now += held;
      locked += held;
      share.released(lockedSince, true);
    }
    share.beforeLocking();                         // the 51st lock
    assertThat((double) locked / now).isCloseTo(0.30, Offset.offset(0.001));
  }

  @Test
  void theLastRebuildIsNotFollowedByAPauseAndIdleTimeCountsTowardTheNext() throws Exception {
    long lockedSince = share.beforeLocking();
    now += 300_000_000L;
    share.released(lockedSince, true);
    assertThat(now).as("released: counted and reported at once").isEqualTo(300_000_000L);
    now += 500_000_000L;                           // nothing to rebuild for a while
    share.beforeLocking();
    assertThat(now).as("waits only the rest of the 700 ms").isEqualTo(1_000_000_000L);
  }

  @Test
  void whenClientsAreQuietTheRebuildDoesNotPause() throws Exception {
    percent.set(100);
    long lockedSince = share.beforeLocking();
    now += 250_000_000L;
    share.released(lockedSince, true);
    share.beforeLocking();
    assertThat(now).isEqualTo(250_000_000L);
  }

  @Test
  void aLockNoWriterWaitedOnCallsForNoPause() throws Exception {
    long lockedSince = share.beforeLocking();
    now += 400_000_000L;                           // a chunk of a file nobody writes
    share.released(lockedSince, false);
    share.beforeLocking();
    assertThat(now).as("the next chunk goes at once (the byte rate still paces it)").isEqualTo(400_000_000L);
  }
}
