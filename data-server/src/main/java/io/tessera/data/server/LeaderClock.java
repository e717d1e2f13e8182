package io.tessera.data.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The meta leader's clock as this server estimates it from the time each heartbeat answer carries:
 * the leader read its clock about half-way through the round trip. Access tokens expire by the
 * leader's clock; judged by this server's own, a token's life would depend on two machines' clocks
 * agreeing, and a server 30 s ahead would refuse every token issued for less than that.
 */
final class LeaderClock {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderClock.class);

  /** A difference this large is worth one line (and another when it moves by as much again). */
  static final long NOTEWORTHY_MS = 1000;

  private volatile long offsetMs;
  private volatile boolean learned;
  private long reportedOffsetMs;

  /**
   * Adopts the leader's time {@code leaderMs} from a heartbeat sent at {@code sentMs} and answered
   * at {@code receivedMs} (this server's clock); 0 (a leader that does not say) changes nothing.
   */
  void learn(long leaderMs, long sentMs, long receivedMs) {
    if (leaderMs == 0) {
      return;
    }
    long roundTripMs = receivedMs - sentMs;
    if (roundTripMs > NOTEWORTHY_MS && learned) {
      return; // a slow answer: the leader may have read its clock anywhere in it
    }
    learned = true;
    long offset = leaderMs - (sentMs + receivedMs) / 2;
    offsetMs = offset;
    if (roundTripMs > NOTEWORTHY_MS) {
      return; // an estimate to judge tokens by, not one to tell an operator about
    }
    synchronized (this) {
      if (Math.abs(offset - reportedOffsetMs) < NOTEWORTHY_MS) {
        return;
      }
      if (Math.abs(offset) < NOTEWORTHY_MS) {
        LOG.info("This server's clock is back in step with the meta leader's");
      } else {
        LOG.warn(
            "This server's clock is {} ms {} the meta leader's; access tokens are judged by the"
                + " leader's clock (keep clocks in step with NTP: logs compare badly otherwise)",
            Math.abs(offset),
            offset < 0 ? "ahead of" : "behind");
      }
      reportedOffsetMs = offset;
    }
  }

  /** Now by the leader's clock, as far as this server can tell (ms since the epoch). */
  long now() {
    return System.currentTimeMillis() + offsetMs;
  }
}
