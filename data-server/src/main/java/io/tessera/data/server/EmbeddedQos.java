package io.tessera.data.server;

import io.tessera.common.config.Config;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Identity;
import io.tessera.common.security.Revocations;
import io.tessera.qos.QosConfigKeys;
import io.tessera.qos.node.QosNode;
import io.tessera.qos.node.ScheduledDataService;
import java.io.Closeable;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;

/**
 * {@code tessera.qos.placement=embedded}: the QoS scheduler in this server's own request pipeline.
 * Clients' requests wait their turn before the server's handler runs them, with the shares a proxy
 * in front of the server would give, without the proxy's socket hop. The server advertises itself
 * as its own scheduling point, so clients piggyback their service elsewhere to it and {@code
 * tessera qos status} asks it.
 */
final class EmbeddedQos implements Closeable {
  private final QosNode node;
  private final ScheduledExecutorService timer;

  private EmbeddedQos(QosNode node, ScheduledExecutorService timer) {
    this.node = node;
    this.timer = timer;
  }

  static boolean configured(Config config) {
    return config.get(QosConfigKeys.Placement.PLACEMENT).equals(QosConfigKeys.Placement.EMBEDDED);
  }

  static EmbeddedQos create(
      String id,
      RpcClientPool pool,
      Supplier<String> self,
      Revocations revocations,
      Config config) {
    ScheduledExecutorService timer = DaemonTimer.named("data-qos-timer");
    QosNode node =
        QosNode.create(
            id,
            "itself (embedded)",
            pool,
            timer,
            self,
            config.get(DataServerConfigKeys.Server.META_ADDRESSES),
            revocations,
            config);
    return new EmbeddedQos(node, timer);
  }

  /** The server's services with {@code handler}'s clients' requests scheduled first. */
  Map<Service, RpcService> services(RpcService handler) {
    return Map.of(
        Service.DATA, node.dataService(EmbeddedQos::admission, handler::handle),
        Service.QOS, node.qosService());
  }

  /**
   * Only what moves data waits its turn: reads, writes and locked reads, whoever sends them (a
   * rebuild's reads and writes from the meta group are scheduled as {@code tessera-recovery}, as
   * through a proxy). Everything else passes at once: unlocks and lock renewals, which free what a
   * waiting write may need, snapshot gates, fences, syncs and scans, which are the cluster's own.
   */
  static String admission(Identity caller, DataRequestProto request) {
    return switch (request.getOpCase()) {
      case READ, WRITE, LOCK_READ -> null;
      default -> ScheduledDataService.Admission.BYPASS;
    };
  }

  void start(ServerMetrics metrics) {
    node.registerMetrics(metrics.alongside("qos"));
    node.start();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
