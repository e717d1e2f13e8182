package io.tessera.qos.node;

import io.tessera.client.internal.MetaClient;
import io.tessera.common.proto.ClusterStatusRequestProto;
import io.tessera.common.proto.CredentialsListRequestProto;
import io.tessera.common.proto.DataServerProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.QosAppProto;
import io.tessera.common.proto.QosListRequestProto;
import io.tessera.common.security.Revocations;
import io.tessera.qos.sched.AppSettings;
import io.tessera.qos.sched.FairScheduler;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows what the meta group says: the applications' settings (applied to the scheduler when they
 * change) and where the other proxies are. A meta group that cannot be reached leaves both as they
 * were.
 */
final class SettingsFollower {
  private static final Logger LOG = LoggerFactory.getLogger(SettingsFollower.class);

  private final MetaClient meta;
  private final FairScheduler scheduler;
  private final Supplier<String> self;
  private final Revocations revocations;
  private volatile List<QosAppProto> current = List.of();
  private volatile List<String> peers = List.of();
  private volatile boolean warned;

  SettingsFollower(
      MetaClient meta,
      FairScheduler scheduler,
      Supplier<String> selfAddress,
      Revocations revocations) {
    this.revocations = revocations;
    this.meta = meta;
    this.scheduler = scheduler;
    this.self = selfAddress;
  }

  void start(ScheduledExecutorService timer, long refreshMillis) {
    timer.scheduleWithFixedDelay(this::refresh, 0, refreshMillis, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(this::refreshPeers, 0, 2000, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(this::refreshRevocations, 0, 1000, TimeUnit.MILLISECONDS);
  }

  /** The revocation list when it changed: revoked callers' connections here close. */
  private void refreshRevocations() {
    meta.call(
            MetaRequestProto.newBuilder()
                .setCredentialsList(
                    CredentialsListRequestProto.newBuilder()
                        .setSinceVersion(revocations.version())))
        .thenAccept(r -> revocations.update(r.getCredentials().getRevocations()));
  }

  List<QosAppProto> current() {
    return current;
  }

  List<String> peers() {
    return peers;
  }

  private void refresh() {
    meta.call(MetaRequestProto.newBuilder().setQosList(QosListRequestProto.getDefaultInstance()))
        .whenComplete(
            (r, err) -> {
              if (err != null) {
                if (!warned) {
                  warned = true;
                  LOG.warn("Cannot read QoS settings from the meta group (keeping the last ones)");
                }
                return;
              }
              warned = false;
              List<QosAppProto> apps = r.getQos().getAppsList();
              if (!apps.equals(current)) {
                current = apps;
                Map<String, AppSettings> byApp = new HashMap<>();
                for (QosAppProto a : apps) {
                  byApp.put(a.getApp(), settingsOf(a));
                }
                scheduler.configure(app -> byApp.getOrDefault(app, AppSettings.DEFAULT));
                scheduler.expect(byApp.keySet());
                LOG.info("QoS settings now: {}", describe(apps));
              }
            });
  }

  private void refreshPeers() {
    meta.call(
            MetaRequestProto.newBuilder()
                .setClusterStatus(ClusterStatusRequestProto.getDefaultInstance()))
        .thenAccept(
            r -> {
              List<String> found = new ArrayList<>();
              for (DataServerProto d : r.getCluster().getDataServersList()) {
                if (!d.getProxyAddress().isEmpty() && !d.getProxyAddress().equals(self.get())) {
                  found.add(d.getProxyAddress());
                }
              }
              peers = List.copyOf(found);
            });
  }

  static AppSettings settingsOf(QosAppProto a) {
    return new AppSettings(
        a.getWeight(),
        a.getReservationBytesPerS(),
        a.getLimitBytesPerS(),
        !a.getNotWorkConserving());
  }

  private static String describe(List<QosAppProto> apps) {
    if (apps.isEmpty()) {
      return "every application at weight 1";
    }
    List<String> parts = new ArrayList<>();
    for (QosAppProto a : apps) {
      parts.add(a.getApp() + " weight " + a.getWeight());
    }
    return String.join(", ", parts);
  }
}
