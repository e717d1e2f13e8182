package io.tessera.qos.exchange;

import io.tessera.common.proto.AppTotalProto;
import io.tessera.common.proto.ServiceTotalsProto;
import io.tessera.qos.sched.FairScheduler;
import io.tessera.qos.sched.FairScheduler.Served;
import java.util.HashMap;
import java.util.Map;

/**
 * The service totals the other proxies last sent: what each application was served elsewhere.
 * Bounded, whatever peers send: at most {@link #MAX_PEERS} proxies and {@link #MAX_APPS} apps each.
 */
public final class PeerTotals implements FairScheduler.Elsewhere {
  static final int MAX_PEERS = 1024;
  static final int MAX_APPS = 1024;

  private record Peer(long incarnation, Map<String, Served> apps) {}

  private final String self;
  private final Map<String, Peer> peers = new HashMap<>();
  private final Map<String, Served> sums = new HashMap<>();

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
    Map<String, Served> apps = new HashMap<>();
    for (AppTotalProto a : totals.getAppsList()) {
      apps.put(a.getApp(), new Served(a.getBytes(), a.getService()));
    }
    Peer old = peers.put(totals.getProxy(), new Peer(totals.getIncarnation(), apps));
    if (old != null) {
      old.apps().forEach((app, s) -> sums.merge(app, s.negated(), Served::plus));
    }
    apps.forEach((app, s) -> sums.merge(app, s, Served::plus));
    sums.values().removeIf(Served::isZero);
    return true;
  }

  @Override
  public synchronized Served served(String app) {
    return sums.getOrDefault(app, Served.NONE);
  }
}
