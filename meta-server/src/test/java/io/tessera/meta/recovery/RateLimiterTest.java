package io.tessera.meta.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Rebuild traffic stays at its rate however long it runs (a clock of its own: no real waiting). */
class RateLimiterTest {
  private long now = 1_000_000_000_000L;

  private RateLimiter limiter(long bytesPerSecond) {
    return new RateLimiter(() -> bytesPerSecond, () -> now, nanos -> now += nanos);
  }

  @Test
  void aLongRebuildIsHeldToTheRateNotJustItsFirstSeconds() throws Exception {
    RateLimiter l = limiter(48L << 20);
    long start = now;
    long bytes = 0;
    for (int chunk = 0; chunk < 1000; chunk++) { // 8 GiB in 8 MiB chunks: minutes at the rate
      l.acquire(8L << 20);
      bytes += 8L << 20;
      now += 20_000_000; // each chunk also takes 20 ms to copy
    }
    double seconds = (now - start) / 1e9;
    // the rate, plus the one second's worth a start after idling may send at once
    assertThat((double) bytes).isBetween(0.97 * (48L << 20) * seconds, (48L << 20) * (seconds + 1));
  }

  @Test
  void afterIdlingAtMostOneSecondsWorthGoesOutAtOnce() throws Exception {
    RateLimiter l = limiter(10L << 20);
    now += 60_000_000_000L; // a minute with nothing to rebuild
    long before = now;
    l.acquire(10L << 20); // a second's worth: no wait
    assertThat(now).isEqualTo(before);
    l.acquire(10L << 20); // the next second's worth waits for it
    assertThat(now - before).isEqualTo(1_000_000_000L);
  }

  @Test
  void aLowerRateWhileClientsAreBusyAppliesFromTheNextChunk() throws Exception {
    long[] rate = {48L << 20};
    RateLimiter l = new RateLimiter(() -> rate[0], () -> now, nanos -> now += nanos);
    l.acquire(48L << 20); // the first second's worth
    rate[0] = 16L << 20; // clients got busy
    long before = now;
    for (int i = 0; i < 16; i++) {
      l.acquire(1L << 20);
    }
    assertThat(now - before).as("16 MiB at 16 MiB/s").isBetween(900_000_000L, 1_000_000_000L);
  }

  @Test
  void underALockASmallCopyGoesOutAtOnceAndTheNextChunkPaysForIt() throws Exception {
    RateLimiter l = limiter(16L << 20);
    l.acquire(16L << 20); // busy: the burst allowance is used up
    long locked = now;
    l.acquireHoldingLock(6L << 20); // a 6 MiB file copied under its file-wide lock
    assertThat(now).as("writers of the file are not kept waiting by the pacing").isEqualTo(locked);
    l.acquire(1L << 20); // the next chunk, lock released
    assertThat(now - locked).as("it waits for both: 7 MiB at 16 MiB/s").isEqualTo(437_500_000L);
  }

  @Test
  void underALockALargeCopyStillKeepsToTheRateOneSecondAhead() throws Exception {
    RateLimiter l = limiter(16L << 20);
    l.acquire(16L << 20);
    long start = now;
    for (int chunk = 0; chunk < 64; chunk++) { // 512 MiB under one lock, in 8 MiB chunks
      l.acquireHoldingLock(8L << 20);
    }
    assertThat(now - start)
        .as("32 s at the rate, less the second it may run ahead")
        .isEqualTo(31_000_000_000L);
  }
}
