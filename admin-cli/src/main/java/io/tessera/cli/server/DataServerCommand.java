package io.tessera.cli.server;

import io.tessera.common.cluster.ServerIds;
import io.tessera.common.config.Config;
import io.tessera.data.server.DataServer;
import io.tessera.data.server.DataServerConfigKeys;
import java.io.Closeable;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tessera server data}: one data server. */
@Command(
    name = "data",
    mixinStandardHelpOptions = true,
    description = "Run one data server: it stores shards and registers with the meta group.")
public final class DataServerCommand implements Callable<Integer> {
  @Option(
      names = "--id",
      required = true,
      description = "this server's id (its directory remembers it)")
  String id;

  @Option(names = "--dir", required = true, description = "where this server keeps its shards")
  Path dir;

  @Option(names = "--port", description = "client port (default 9870; 0 picks a free one)")
  Integer port;

  @Option(
      names = "--bind-host",
      description = "address to listen on (default 127.0.0.1; 0.0.0.0: every address)")
  String bindHost;

  @Option(
      names = "--advertise",
      paramLabel = "HOST[:PORT]",
      description =
          "where clients reach this server, when not where it listens (bound to 0.0.0.0, behind"
              + " NAT, in a container); the same as -Dtessera.data.advertised-address")
  String advertise;

  @Option(
      names = "--meta",
      paramLabel = "HOST:PORT,...",
      required = true,
      description = "the meta replicas")
  String meta;

  @Mixin ServerOptions server;

  @Override
  public Integer call() throws Exception {
    ServerIds.requireValid(id);
    if (port != null && (port < 0 || port > 65535)) {
      throw new IllegalArgumentException(
          "--port " + port + ": a port is 1 to 65535 (0: any free one)");
    }
    server.redirectOutput();
    Config c = server.config().with(DataServerConfigKeys.Server.META_ADDRESSES, meta);
    if (port != null) {
      c = c.with(DataServerConfigKeys.Server.PORT, String.valueOf(port));
    }
    if (bindHost != null) {
      c = c.with(DataServerConfigKeys.Server.BIND_HOST, bindHost);
    }
    if (advertise != null) {
      c = c.with(DataServerConfigKeys.Server.ADVERTISED_ADDRESS, advertise);
    }
    DataServer data = DataServer.start(id, dir, c);
    Closeable http = server.serveMetrics(data.metrics());
    ServerRunner.recordPid(server.clusterFile, id);
    ServerRunner.runUntilStopped(data, http, "data server " + id);
    return 0;
  }
}
