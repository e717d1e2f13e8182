package io.tessera.cli.server;

import io.tessera.common.config.Config;
import io.tessera.common.rpc.HostPort;
import io.tessera.qos.proxy.QosProxy;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tessera server proxy}: one QoS proxy in front of one data server. */
@Command(
    name = "proxy",
    mixinStandardHelpOptions = true,
    description = {
      "Run one QoS proxy in front of one data server: it schedules the server's requests per"
          + " application, in proportion to their weights summed over all servers (tessera qos).",
      "Start the data server with -Dtessera.data.proxy=HOST:PORT (this proxy's --listen) so that"
          + " clients send here; they go to the server directly while the proxy does not answer."
    })
public final class ProxyServerCommand implements Callable<Integer> {
  @Option(names = "--id", required = true, description = "this proxy's id, e.g. proxy-ds-1")
  String id;

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      required = true,
      description = "where clients send (port 0 picks a free one)")
  String listen;

  @Option(
      names = "--data-server",
      paramLabel = "HOST:PORT",
      required = true,
      description = "the data server behind this proxy")
  String dataServer;

  @Option(
      names = "--meta",
      paramLabel = "HOST:PORT,...",
      required = true,
      description = "the meta replicas (settings and the other proxies come from them)")
  String meta;

  @Mixin ServerOptions server;

  @Override
  public Integer call() throws Exception {
    server.redirectOutput();
    Config c = server.config();
    HostPort at = HostPort.parse(listen);
    QosProxy proxy =
        QosProxy.start(id, new InetSocketAddress(at.host(), at.port()), dataServer, meta, c);
    Closeable http = server.serveMetrics(proxy.metrics());
    ServerRunner.recordPid(server.clusterFile, id);
    ServerRunner.runUntilStopped(proxy, http, "QoS proxy " + id);
    return 0;
  }
}
