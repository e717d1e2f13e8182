package io.tessera.client.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client's server-status vector: data servers that failed a request (after its retry)
 * are skipped until their mark expires, then tried again, so a returning server is noticed
 * without asking anyone.
 */
public final class ServerHealth {
  private static final Logger LOG = LoggerFactory.getLogger(ServerHealth.class);

  private final long downForNanos;
  private final LongSupplier nanoClock;
  private final Map<String, Long> downUntil = new ConcurrentHashMap<>();

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

  /** Skips the server until the mark expires. */
  public void markDown(String server, String why) {
    if (downUntil.put(server, nanoClock.getAsLong() + downForNanos) == null) {
      LOG.warn("Data server {} marked down for {} s: {}", server, Duration.ofNanos(downForNanos).toSeconds(), why);
    }
  }
}
