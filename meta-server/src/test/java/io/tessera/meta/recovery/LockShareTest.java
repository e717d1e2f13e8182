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
      long held = (100 + 7 * file) * 1_000_000L; // each copy holds its file's lock 100 ms or more
      now += held;
      locked += held;
      share.released(lockedSince, true);
    }
    share.beforeLocking(); // the 51st lock
    assertThat((double) locked / now).isCloseTo(0.30, Offset.offset(0.001));
  }

  @Test
  void theLastRebuildIsNotFollowedByAPauseAndIdleTimeCountsTowardTheNext() throws Exception {
    long lockedSince = share.beforeLocking();
    now += 300_000_000L;
    share.released(lockedSince, true);
    assertThat(now).as("released: counted and reported at once").isEqualTo(300_000_000L);
    now += 500_000_000L; // nothing to rebuild for a while
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
    now += 400_000_000L; // a chunk of a file nobody writes
    share.released(lockedSince, false);
    share.beforeLocking();
    assertThat(now)
        .as("the next chunk goes at once (the byte rate still paces it)")
        .isEqualTo(400_000_000L);
  }

  @Test
  void aFileNobodyWritesIsCopiedWhileTheBusyFilesPauseRunsOut() throws Exception {
    long lockedSince = share.beforeLocking();
    now += 100_000_000L; // a busy file's copy: 100 ms under its file-wide lock
    share.released(lockedSince, true); // owes 100 x 70 / 30 = 233 ms
    long chunkSince = share.beforeUnwaitedLock();
    assertThat(now).as("the idle file's chunk is not held up").isEqualTo(100_000_000L);
    now += 50_000_000L;
    share.released(chunkSince, false);
    share.beforeLocking(); // the next file-wide lock
    assertThat(now).as("waits only what the 50 ms did not pay off").isEqualTo(333_333_333L);
  }

  @Test
  void aChunkWritersWaitedOnAfterAllOwesItsPauseOnTopOfWhatWasOwed() throws Exception {
    long lockedSince = share.beforeLocking();
    now += 100_000_000L;
    share.released(lockedSince, true); // owes 233 ms
    long chunkSince = share.beforeUnwaitedLock();
    now += 60_000_000L; // a writer asked for the chunk's stripes meanwhile
    share.released(chunkSince, true);
    share.beforeLocking();
    assertThat((double) 160_000_000L / now)
        .as("160 ms locked in all: still 30 % of the clock")
        .isCloseTo(0.30, Offset.offset(0.001));
  }
}
