package io.tessera.common.rpc;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * One line per refused peer address a minute: a script that retries a refused connection in a loop
 * must not flood the log, and the operator still learns who is knocking.
 */
final class RefusalLog {
  private static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final int MAX_REMEMBERED = 4096;

  private final Logger log;
  private final ConcurrentHashMap<String, Long> lastSaid = new ConcurrentHashMap<>();

  RefusalLog(Logger log) {
    this.log = log;
  }

  /** Logs {@code line} (with {@code args}) at WARN unless this address was logged a minute ago. */
  void refused(String address, String line, Object... args) {
    long now = System.nanoTime();
    Long before = lastSaid.get(address);
    if (before != null && now - before < QUIET_NANOS) {
      log.debug(line, args);
      return;
    }
    if (lastSaid.size() >= MAX_REMEMBERED) {
      lastSaid.clear();
    }
    lastSaid.put(address, now);
    log.warn(line, args);
  }

  /** The host part of a socket address's text ("/127.0.0.1:5432" -> "127.0.0.1"). */
  static String host(Object remote) {
    String s = String.valueOf(remote);
    int slash = s.indexOf('/');
    int colon = s.lastIndexOf(':');
    return s.substring(slash + 1, colon > slash ? colon : s.length());
  }
}
