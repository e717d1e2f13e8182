package io.tessera.qos.node;

import io.tessera.client.internal.MetaClient;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.config.Config;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.security.Revocations;
import io.tessera.qos.QosConfigKeys;
import io.tessera.qos.exchange.PeerTotals;
import io.tessera.qos.exchange.PiggybackedTotals;
import io.tessera.qos.exchange.TotalsExchange;
import io.tessera.qos.sched.FairScheduler;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One scheduling point in front of one data server: its {@link FairScheduler}, how it learns the
 * service at the other points, the settings it follows, and its two services (data.proto through
 * the scheduler, qos.proto for totals and status). A proxy and a data server with the scheduler
 * embedded build the same node and differ only in where a scheduled request goes.
 */
public final class QosNode {
  private final FairScheduler scheduler;
  private final PiggybackedTotals piggybacked;
  private final TotalsExchange exchange;
  private final SettingsFollower settings;
  private final QosService status;
  private final boolean exchanged;
  private final Config config;
  private final ScheduledExecutorService timer;

  private QosNode(
      FairScheduler scheduler,
      PiggybackedTotals piggybacked,
      TotalsExchange exchange,
      SettingsFollower settings,
      QosService status,
      boolean exchanged,
      Config config,
      ScheduledExecutorService timer) {
    this.scheduler = scheduler;
    this.piggybacked = piggybacked;
    this.exchange = exchange;
    this.settings = settings;
    this.status = status;
    this.exchanged = exchanged;
    this.config = config;
    this.timer = timer;
  }

  /**
   * Builds the node of {@code id} in front of {@code servedServer}. Nothing runs until {@link
   * #start}.
   *
   * @param pool reaches the meta group and the other points (owned by the caller)
   * @param timer runs the settings follower, the exchange and the scheduler's wake-ups
   * @param self this point's address as clients reach it, once it listens
   * @param meta the meta replicas, comma-separated host:port
   */
  public static QosNode create(
      String id,
      String servedServer,
      RpcClientPool pool,
      ScheduledExecutorService timer,
      Supplier<String> self,
      String meta,
      Revocations revocations,
      Config config) {
    long requestCost = config.get(QosConfigKeys.Scheduling.REQUEST_COST);
    PeerTotals peers = new PeerTotals(id);
    PiggybackedTotals piggybacked = new PiggybackedTotals(requestCost);
    String source = config.get(QosConfigKeys.Totals.SOURCE);
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
    SettingsFollower settings = new SettingsFollower(metaClient, scheduler, self, revocations);
    boolean exchanged = source.equals(QosConfigKeys.Totals.EXCHANGE);
    TotalsExchange exchange =
        new TotalsExchange(
            id,
            scheduler,
            pool,
            settings::peers,
            exchanged ? config.get(QosConfigKeys.Totals.BYTES) : 0,
            timer);
    QosService status =
        new QosService(id, servedServer, scheduler, peers, elsewhere, exchange, settings);
    return new QosNode(
        scheduler, piggybacked, exchange, settings, status, exchanged, config, timer);
  }

  /** data.proto through this node's scheduler: what {@code admission} lets in waits its turn. */
  public RpcService dataService(
      ScheduledDataService.Admission admission, ScheduledDataService.Downstream downstream) {
    return new ScheduledDataService(scheduler, exchange, piggybacked, admission, downstream);
  }

  /** qos.proto: totals from the other points, and what this one served. */
  public RpcService qosService() {
    return status;
  }

  /** Starts following the settings and sending totals: once this point listens. */
  public void start() {
    settings.start(timer, config.get(QosConfigKeys.Scheduling.SETTINGS_REFRESH).toMillis());
    exchange.start(exchanged ? config.get(QosConfigKeys.Totals.INTERVAL).toMillis() : 0);
  }

  /** Adds what this node served, by application, to {@code m} (named {@code tessera_qos_}). */
  public void registerMetrics(ServerMetrics m) {
    m.countersOf(
        "served_bytes",
        "Bytes this point scheduled and served, by application",
        "app",
        () -> mapValues(FairScheduler.AppCounters::bytes));
    m.countersOf(
        "requests",
        "Requests this point scheduled and served, by application",
        "app",
        () -> mapValues(FairScheduler.AppCounters::requests));
    m.countersOf(
        "queue_delay_seconds",
        "Time requests waited in this point's queues, summed, by application",
        "app",
        () -> mapValues(c -> c.queueDelayNanos() / 1e9));
  }

  private <V> Map<String, V> mapValues(Function<FairScheduler.AppCounters, V> value) {
    Map<String, V> out = new LinkedHashMap<>();
    scheduler.counters().forEach((app, c) -> out.put(app, value.apply(c)));
    return out;
  }
}
