package io.tessera.qos.proxy;

import io.tessera.client.internal.MetaClient;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.config.Config;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.rpc.HostPort;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.qos.QosConfigKeys;
import io.tessera.qos.exchange.PeerTotals;
import io.tessera.qos.exchange.PiggybackedTotals;
import io.tessera.qos.exchange.TotalsExchange;
import io.tessera.qos.sched.FairScheduler;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A QoS proxy: one process in front of one data server. Clients send it data.proto as they would
 * the server; it schedules requests per application ({@link FairScheduler}), exchanges service
 * totals with the other proxies, and follows the applications' settings in the meta group.
 */
public final class QosProxy implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(QosProxy.class);

  private final String id;
  private final RpcServer rpc;
  private final RpcClientPool pool;
  private final ScheduledExecutorService timer;
  private final String address;
  private final ServerMetrics metrics;

  private QosProxy(
      String id,
      RpcServer rpc,
      RpcClientPool pool,
      ScheduledExecutorService timer,
      String address,
      ServerMetrics metrics) {
    this.metrics = metrics;
    this.id = id;
    this.rpc = rpc;
    this.pool = pool;
    this.timer = timer;
    this.address = address;
  }

  /**
   * Starts a proxy listening on {@code listen} in front of the data server at {@code dataServer},
   * following the meta replicas {@code meta} (comma-separated host:port).
   */
  public static QosProxy start(
      String id, InetSocketAddress listen, String dataServer, String meta, Config config)
      throws IOException {
    HostPort.parse(dataServer); // refuses a malformed address before anything starts
    int maxFrame = RpcConfigKeys.maxFrameBytes(config);
    TransportSecurity security = TransportSecurity.forServer(config, id, Identity.Role.PROXY);
    RpcClientPool pool =
        new RpcClientPool(
            "proxy-" + id,
            config.get(RpcConfigKeys.IO_THREADS),
            maxFrame,
            config.get(RpcConfigKeys.CALL_TIMEOUT).toMillis(),
            (int) config.get(RpcConfigKeys.CONNECT_TIMEOUT).toMillis(),
            RpcConfigKeys.silenceLimitMillis(config),
            security);
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "proxy-" + id + "-timer");
              t.setDaemon(true);
              return t;
            });
    long requestCost = config.get(QosConfigKeys.Scheduling.REQUEST_COST);
    PeerTotals peers = new PeerTotals(id);
    PiggybackedTotals piggybacked = new PiggybackedTotals(requestCost);
    String source = config.get(QosConfigKeys.Totals.SOURCE);
    boolean exchanged = source.equals(QosConfigKeys.Totals.EXCHANGE);
    FairScheduler.Elsewhere elsewhere =
        switch (source) {
          case QosConfigKeys.Totals.EXCHANGE -> peers;
          case QosConfigKeys.Totals.PIGGYBACK -> piggybacked;
          default -> app -> FairScheduler.Served.NONE;
        };
    FairScheduler scheduler =
        new FairScheduler(
            config.get(QosConfigKeys.Scheduling.DEPTH),
            requestCost,
            System::nanoTime,
            (nanos, pump) -> timer.schedule(pump, nanos, TimeUnit.NANOSECONDS),
            elsewhere);
    // /metrics shows the per-application series from the start, at zero
    scheduler.expect(List.of(RequestApps.DEFAULT));
    MetaClient metaClient =
        new MetaClient(
            pool,
            Arrays.asList(meta.split(",")),
            Duration.ofSeconds(2),
            MetaClient.identity(RecoveryIdentity.newClientId().toByteArray(), "tessera-qos"),
            false);
    RpcServer rpc;
    String address;
    SettingsFollower settings;
    TotalsExchange exchange;
    try {
      // the proxy's own address is known once it listens; its settings follower needs it first
      String[] self = {""};
      settings = new SettingsFollower(metaClient, scheduler, () -> self[0], security.revocations());
      exchange =
          new TotalsExchange(
              id,
              scheduler,
              pool,
              settings::peers,
              exchanged ? config.get(QosConfigKeys.Totals.BYTES) : 0,
              timer);
      rpc =
          RpcServer.start(
              "proxy-" + id,
              listen,
              Map.of(
                  Service.DATA,
                  new ForwardingService(dataServer, pool, scheduler, exchange, piggybacked),
                  Service.QOS,
                  new QosService(id, dataServer, scheduler, peers, elsewhere, exchange, settings)),
              RpcConfigKeys.serverLimits(config),
              security);
      address = new HostPort(listen.getHostString(), rpc.port()).toString();
      self[0] = address;
    } catch (RuntimeException | InterruptedException e) {
      pool.close();
      timer.shutdownNow();
      throw new IOException("QoS proxy " + id + " cannot listen on " + listen + ": " + e, e);
    }
    settings.start(timer, config.get(QosConfigKeys.Scheduling.SETTINGS_REFRESH).toMillis());
    exchange.start(exchanged ? config.get(QosConfigKeys.Totals.INTERVAL).toMillis() : 0);
    LOG.info("QoS proxy {} serving {} in front of data server {}", id, address, dataServer);
    return new QosProxy(id, rpc, pool, timer, address, metrics(scheduler, config));
  }

  private static ServerMetrics metrics(FairScheduler scheduler, Config config) {
    ServerMetrics m = new ServerMetrics("qos", config);
    m.countersOf(
        "served_bytes",
        "Bytes this proxy forwarded, by application",
        "app",
        () -> mapValues(scheduler.counters(), FairScheduler.AppCounters::bytes));
    m.countersOf(
        "requests",
        "Requests this proxy forwarded, by application",
        "app",
        () -> mapValues(scheduler.counters(), FairScheduler.AppCounters::requests));
    m.countersOf(
        "queue_delay_seconds",
        "Time requests waited in this proxy's queues, summed, by application",
        "app",
        () -> mapValues(scheduler.counters(), c -> c.queueDelayNanos() / 1e9));
    return m;
  }

  private static <V> Map<String, V> mapValues(
      Map<String, FairScheduler.AppCounters> counters,
      Function<FairScheduler.AppCounters, V> value) {
    Map<String, V> out = new LinkedHashMap<>();
    counters.forEach((app, c) -> out.put(app, value.apply(c)));
    return out;
  }

  /** What this proxy shows at /metrics. */
  public ServerMetrics metrics() {
    return metrics;
  }

  public String address() {
    return address;
  }

  public int port() {
    return rpc.port();
  }

  @Override
  public void close() {
    rpc.close();
    timer.shutdownNow();
    pool.close();
    LOG.info("QoS proxy {} stopped", id);
  }
}
