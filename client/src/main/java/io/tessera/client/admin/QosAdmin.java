package io.tessera.client.admin;

import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.Unpooled;
import io.tessera.client.Futures;
import io.tessera.client.internal.MetaClient;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.QosAppCountersProto;
import io.tessera.common.proto.QosAppProto;
import io.tessera.common.proto.QosListRequestProto;
import io.tessera.common.proto.QosProxyStatusProto;
import io.tessera.common.proto.QosRequestProto;
import io.tessera.common.proto.QosResponseProto;
import io.tessera.common.proto.QosSetRequestProto;
import io.tessera.common.proto.QosStatusRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * QoS settings, replicated in the meta group (they survive restarts and leader changes, and reach
 * every proxy within a second), and the shares the proxies achieve.
 */
public final class QosAdmin {
  private final MetaClient meta;
  private final RpcClientPool pool;
  private final ClusterAdmin cluster;

  QosAdmin(MetaClient meta, RpcClientPool pool, ClusterAdmin cluster) {
    this.meta = meta;
    this.pool = pool;
    this.cluster = cluster;
  }

  /** Sets an application's settings; refused (with the reason) when they make no sense. */
  public void set(QosApp app) throws IOException {
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setQosSet(QosSetRequestProto.newBuilder().setApp(app.toProto()))));
  }

  /** An application goes back to the defaults (weight 1, no reservation, no limit). */
  public void reset(String app) throws IOException {
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setQosSet(
                    QosSetRequestProto.newBuilder()
                        .setApp(QosAppProto.newBuilder().setApp(app))
                        .setReset(true))));
  }

  /** The figures {@link #status} sums per application over the proxies. */
  private static final int FIGURES = 7;

  /** Every application with settings of its own. */
  public List<QosApp> list() throws IOException {
    return Futures.get(
            meta.call(
                MetaRequestProto.newBuilder().setQosList(QosListRequestProto.getDefaultInstance())))
        .getQos()
        .getAppsList()
        .stream()
        .map(QosApp::of)
        .toList();
  }

  /**
   * Watches every proxy for {@code window}: what each application was served, against its target.
   */
  public QosStatus status(Duration window) throws IOException {
    List<String> proxies = new ArrayList<>();
    for (ClusterStatus.DataServer d : cluster.status().dataServers()) {
      if (!d.proxyAddress().isEmpty()) {
        proxies.add(d.proxyAddress());
      }
    }
    Map<String, QosApp> settings = new HashMap<>();
    for (QosApp a : list()) {
      settings.put(a.app(), a);
    }
    Map<String, QosProxyStatusProto> before = sample(proxies);
    long started = System.nanoTime();
    try {
      Thread.sleep(window.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while watching the proxies");
    }
    Map<String, QosProxyStatusProto> after = sample(proxies);
    long elapsedNanos = System.nanoTime() - started;
    // bytes, requests, queue delay ns, service, service asked, backlogged ns, proxies serving it
    Map<String, long[]> delta = new LinkedHashMap<>();
    Map<String, Map<String, Double>> byProxy = new HashMap<>();
    after.forEach(
        (proxy, now) -> {
          QosProxyStatusProto then = before.get(proxy);
          for (QosAppCountersProto c : now.getAppsList()) {
            QosAppCountersProto old = counters(then, c.getApp());
            long[] d = delta.computeIfAbsent(c.getApp(), k -> new long[FIGURES]);
            d[0] += c.getBytes() - old.getBytes();
            d[1] += c.getRequests() - old.getRequests();
            d[2] += c.getQueueDelayNs() - old.getQueueDelayNs();
            d[3] += c.getService() - old.getService();
            d[4] += c.getServiceAsked() - old.getServiceAsked();
            d[5] += c.getBackloggedNs() - old.getBackloggedNs();
            d[6] += c.getServiceAsked() > old.getServiceAsked() ? 1 : 0;
            byProxy
                .computeIfAbsent(c.getApp(), k -> new TreeMap<>())
                .put(proxy, (c.getBytes() - old.getBytes()) * 1e9 / elapsedNanos);
          }
        });
    TreeSet<String> apps = new TreeSet<>(settings.keySet());
    delta.forEach((app, d) -> apps.add(app));
    long totalService = 0;
    long totalAsked = 0;
    double activeWeight = 0;
    for (String app : apps) {
      long[] d = delta.getOrDefault(app, new long[FIGURES]);
      totalService += d[3];
      totalAsked += d[4];
      if (d[0] > 0) {
        activeWeight += settings.getOrDefault(app, QosApp.defaults(app)).weight();
      }
    }
    List<QosStatus.App> rows = new ArrayList<>();
    for (String app : apps) {
      long[] d = delta.getOrDefault(app, new long[FIGURES]);
      QosApp s = settings.getOrDefault(app, QosApp.defaults(app));
      rows.add(
          new QosStatus.App(
              s,
              d[0] > 0 && activeWeight > 0 ? s.weight() / activeWeight : 0,
              totalService > 0 ? (double) d[3] / totalService : 0,
              d[0] * 1e9 / elapsedNanos,
              d[1],
              d[1] > 0 ? d[2] / 1e6 / d[1] : 0,
              byProxy.getOrDefault(app, Map.of()),
              totalAsked > 0 ? (double) d[4] / totalAsked : 0,
              d[6] > 0 ? Math.min(1, (double) d[5] / d[6] / elapsedNanos) : 0));
    }
    List<String> missing = new ArrayList<>(proxies);
    missing.removeAll(after.keySet());
    long exchanged = 0;
    for (Map.Entry<String, QosProxyStatusProto> e : after.entrySet()) {
      QosProxyStatusProto then = before.get(e.getKey());
      exchanged +=
          e.getValue().getExchangeBytesSent() - (then == null ? 0 : then.getExchangeBytesSent());
    }
    return new QosStatus(
        TimeUnit.NANOSECONDS.toMillis(elapsedNanos),
        rows,
        List.copyOf(after.keySet()),
        missing,
        exchanged * 1e9 / elapsedNanos,
        after.values().stream()
            .allMatch(
                p ->
                    new HashSet<>(p.getSettingsList())
                        .equals(
                            new HashSet<>(
                                settings.values().stream().map(QosApp::toProto).toList()))));
  }

  private static QosAppCountersProto counters(QosProxyStatusProto status, String app) {
    if (status != null) {
      for (QosAppCountersProto c : status.getAppsList()) {
        if (c.getApp().equals(app)) {
          return c;
        }
      }
    }
    return QosAppCountersProto.getDefaultInstance();
  }

  /** Each proxy's counters now; a proxy that does not answer within 3 s is left out. */
  private Map<String, QosProxyStatusProto> sample(List<String> proxies) {
    byte[] header =
        QosRequestProto.newBuilder()
            .setStatus(QosStatusRequestProto.getDefaultInstance())
            .build()
            .toByteArray();
    Map<String, CompletableFuture<Frame>> calls = new LinkedHashMap<>();
    for (String p : proxies) {
      calls.put(
          p,
          pool.call(p, Service.QOS, header, Unpooled.EMPTY_BUFFER).orTimeout(3, TimeUnit.SECONDS));
    }
    Map<String, QosProxyStatusProto> out = new LinkedHashMap<>();
    calls.forEach(
        (proxy, call) -> {
          try {
            Frame f = call.join();
            try {
              QosResponseProto r = QosResponseProto.parseFrom(f.header());
              if (r.getStatus() == StatusProto.OK) {
                out.put(proxy, r.getProxy());
              }
            } finally {
              f.release();
            }
          } catch (RuntimeException | InvalidProtocolBufferException unreachable) {
            // left out: the status names it unreachable
          }
        });
    return out;
  }
}
