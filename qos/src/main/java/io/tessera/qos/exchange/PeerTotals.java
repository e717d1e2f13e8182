package io.tessera.qos.exchange;

import io.tessera.common.proto.AppTotalProto;
import io.tessera.common.proto.ServiceTotalsProto;
import io.tessera.qos.sched.FairScheduler;
import java.util.HashMap;
import java.util.Map;

/**
 * The service totals the other proxies last sent: what each application was served elsewhere.
 * Bounded, whatever peers send: at most {@link #MAX_PEERS} proxies and {@link #MAX_APPS} apps each.
 */
public final class PeerTotals implements FairScheduler.Elsewhere {
  static final int MAX_PEERS = 1024;
  static final int MAX_APPS = 1024;

  private record Peer(long incarnation, Map<String, Long> bytes) {}

  private final String self;
  private final Map<String, Peer> peers = new HashMap<>();
  private final Map<String, Long> sums = new HashMap<>();

  public PeerTotals(String self) {
    this.self = self;
  }

  /** Takes a peer's totals; false (and ignored) when they come from this proxy or exceed bounds. */
  public synchronized boolean accept(ServiceTotalsProto totals) {
    if (totals.getProxy().equals(self)
        || totals.getAppsCount() > MAX_APPS
        || (!peers.containsKey(totals.getProxy()) && peers.size() >= MAX_PEERS)) {
      return false;
    }
    Map<String, Long> bytes = new HashMap<>();
    for (AppTotalProto a : totals.getAppsList()) {
      bytes.put(a.getApp(), a.getBytes());
    }
    Peer old = peers.put(totals.getProxy(), new Peer(totals.getIncarnation(), bytes));
    if (old != null) {
      old.bytes().forEach((app, b) -> sums.merge(app, -b, Long::sum));
    }
    bytes.forEach((app, b) -> sums.merge(app, b, Long::sum));
    sums.values().removeIf(v -> v == 0);
    return true;
  }

  @Override
  public synchronized long served(String app) {
    return sums.getOrDefault(app, 0L);
  }
}
