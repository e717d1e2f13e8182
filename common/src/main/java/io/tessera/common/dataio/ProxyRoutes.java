package io.tessera.common.dataio;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where to send a data server's requests when a QoS proxy stands in front of it: to the proxy,
 * except for a while after the proxy failed a call (killed, restarting), when requests go to the
 * data server directly. Availability comes before shares: a dead proxy never makes data unreadable.
 */
public final class ProxyRoutes {
  private final long bypassNanos;
  private final Map<String, Long> bypassUntil = new ConcurrentHashMap<>();

  /**
   * @param bypassMillis how long a server is reached directly after its proxy failed a call
   */
  public ProxyRoutes(long bypassMillis) {
    this.bypassNanos = bypassMillis * 1_000_000L;
  }

  /** The address to send to: {@code proxy} unless it is empty or bypassed, else {@code direct}. */
  public String choose(String server, String direct, String proxy) {
    if (proxy == null || proxy.isEmpty()) {
      return direct;
    }
    Long until = bypassUntil.get(server);
    if (until != null) {
      if (until - System.nanoTime() > 0) {
        return direct;
      }
      bypassUntil.remove(server, until);
    }
    return proxy;
  }

  /** The proxy in front of {@code server} failed a call: reach the server directly for a while. */
  public void proxyFailed(String server) {
    bypassUntil.put(server, System.nanoTime() + bypassNanos);
  }
}
