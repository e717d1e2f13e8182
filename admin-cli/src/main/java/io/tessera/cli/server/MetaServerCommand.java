package io.tessera.cli.server;

import io.tessera.meta.server.MetaPeer;
import io.tessera.meta.server.MetaServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
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

  @Mixin ServerOptions server;

  @Override
  public Integer call() throws Exception {
    server.redirectOutput();
    MetaServer meta = MetaServer.start(id, MetaPeer.parseList(peers), dir, server.config());
    ServerRunner.recordPid(server.clusterFile, id);
    meta.onRaftDeath(() -> Runtime.getRuntime().halt(1));
    ServerRunner.runUntilStopped(meta, "meta server " + id);
    return 0;
  }
}
