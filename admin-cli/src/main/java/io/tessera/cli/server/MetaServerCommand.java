package io.tessera.cli.server;

import io.tessera.client.AsyncTesseraFileSystem;
import io.tessera.client.ClientConfigKeys;
import io.tessera.common.config.Config;
import io.tessera.common.rpc.HostPort;
import io.tessera.console.Console;
import io.tessera.meta.server.MetaPeer;
import io.tessera.meta.server.MetaServer;
import io.tessera.meta.server.MetaServerConfigKeys;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tessera server meta}: one replica of the meta group. */
@Command(
    name = "meta",
    mixinStandardHelpOptions = true,
    description = {
      "Run one meta replica (a member of the Raft group that owns the namespace).",
      "Every replica of a group is started with the same --peers list."
    })
public final class MetaServerCommand implements Callable<Integer> {
  @Option(
      names = "--id",
      required = true,
      description = "this replica's id, one of the --peers ids")
  String id;

  @Option(
      names = "--peers",
      required = true,
      paramLabel = "ID=HOST:CLIENT_PORT:RAFT_PORT,...",
      description =
          "every replica of the group, e.g. m1=127.0.0.1:9860:9861,m2=127.0.0.1:9862:9863")
  String peers;

  @Option(
      names = "--dir",
      required = true,
      description = "where this replica keeps its log and namespace")
  Path dir;

  @Option(
      names = "--bind-host",
      description =
          "address to listen on, when not the host this replica's --peers entry names (0.0.0.0:"
              + " every address; the entry stays what clients and replicas reach); the same as"
              + " -Dtessera.meta.bind-host")
  String bindHost;

  @Mixin ServerOptions server;

  @Override
  public Integer call() throws Exception {
    server.redirectOutput();
    Config config = server.config();
    if (bindHost != null) {
      config = config.with(MetaServerConfigKeys.Raft.BIND_HOST, bindHost);
    }
    List<MetaPeer> group = MetaPeer.parseList(peers);
    MetaServer meta = MetaServer.start(id, group, dir, config);
    Closeable http = server.http == null ? () -> {} : console(group, config, meta);
    ServerRunner.recordPid(server.clusterFile, id);
    meta.onRaftDeath(() -> Runtime.getRuntime().halt(1));
    ServerRunner.runUntilStopped(meta, http, "meta server " + id);
    return 0;
  }

  /**
   * The console, acting through a client of the whole group (so that changes reach the leader
   * whichever replica serves the page), and this replica's metrics.
   */
  private Closeable console(List<MetaPeer> group, Config config, MetaServer meta)
      throws IOException {
    String addresses = group.stream().map(MetaPeer::clientAddress).collect(Collectors.joining(","));
    Config client =
        config
            .with(ClientConfigKeys.Cluster.META, addresses)
            .with(ClientConfigKeys.Cluster.APP_ID, "console");
    AsyncTesseraFileSystem fs = AsyncTesseraFileSystem.connect(client);
    Console console = Console.start(HostPort.parse(server.http), fs, fs.admin(), meta.metrics());
    return () -> {
      console.close();
      fs.close();
    };
  }
}
