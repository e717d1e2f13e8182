package io.tessera.qos.proxy;

import io.tessera.common.config.Config;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.rpc.HostPort;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.qos.node.QosNode;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A QoS proxy: one process in front of one data server. Clients send it data.proto as they would
 * the server; its {@link QosNode} schedules requests per application, and each request's turn sends
 * it on to the data server ({@link Forwarding}).
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
    ScheduledExecutorService timer = DaemonTimer.named("proxy-" + id + "-timer");
    RpcServer rpc;
    String address;
    QosNode node;
    try {
      // the proxy's own address is known once it listens; its settings follower needs it first
      String[] self = {""};
      node =
          QosNode.create(
              id, dataServer, pool, timer, () -> self[0], meta, security.revocations(), config);
      rpc =
          RpcServer.start(
              "proxy-" + id,
              listen,
              Map.of(
                  Service.DATA,
                  node.dataService(Forwarding::refusal, new Forwarding(dataServer, pool)),
                  Service.QOS,
                  node.qosService()),
              RpcConfigKeys.serverLimits(config),
              security);
      address = new HostPort(listen.getHostString(), rpc.port()).toString();
      self[0] = address;
    } catch (RuntimeException | InterruptedException e) {
      pool.close();
      timer.shutdownNow();
      throw new IOException("QoS proxy " + id + " cannot listen on " + listen + ": " + e, e);
    }
    node.start();
    LOG.info("QoS proxy {} serving {} in front of data server {}", id, address, dataServer);
    ServerMetrics metrics = new ServerMetrics("qos", config);
    node.registerMetrics(metrics);
    return new QosProxy(id, rpc, pool, timer, address, metrics);
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
