package io.tessera.client.internal;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's server-status vector: data servers that failed a request (after its retry) are
 * skipped until their mark expires, then tried again, so a returning server is noticed without
 * asking anyone. Each outage is logged once when it starts and once when the server answers again,
 * however often its mark expires and is renewed in between.
 */
public final class ServerHealth {
  private static final Logger LOG = LoggerFactory.getLogger(ServerHealth.class);

  private final long downForNanos;
  private final LongSupplier nanoClock;
  private final Map<String, Long> downUntil = new ConcurrentHashMap<>();

  /** Servers marked down that have not answered since: their outage is already reported. */
  private final Set<String> unanswered = ConcurrentHashMap.newKeySet();

  public ServerHealth(Duration downFor, LongSupplier nanoClock) {
    this.downForNanos = downFor.toNanos();
    this.nanoClock = nanoClock;
  }

  /** Whether requests should skip the server for now. */
  public boolean isDown(String server) {
    Long until = downUntil.get(server);
    if (until == null) {
      return false;
    }
    if (nanoClock.getAsLong() - until >= 0) {
      downUntil.remove(server, until);
      return false;
    }
    return true;
  }

  /**
   * Skips the server until the mark expires; returns whether this starts an outage (the server
   * answered since it was last marked, or never was), the one time it is logged.
   */
  public boolean markDown(String server, String why) {
    downUntil.put(server, nanoClock.getAsLong() + downForNanos);
    if (!unanswered.add(server)) {
      return false;
    }
    LOG.warn(
        "Data server {} marked down (tried again every {} s until it answers): {}",
        server,
        Duration.ofNanos(downForNanos).toSeconds(),
        why);
    return true;
  }

  /** The server answered a request: an outage reported for it is over. */
  public void answered(String server) {
    if (!unanswered.isEmpty() && unanswered.remove(server)) {
      LOG.info("Data server {} answers again", server);
    }
  }
}
