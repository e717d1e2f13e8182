package io.tessera.cli.server;

import io.tessera.common.config.Config;
import io.tessera.common.rpc.HostPort;
import io.tessera.nfs.export.Exports;
import io.tessera.nfs.gateway.NfsGateway;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tessera server nfs}: an NFSv3 gateway to the cluster. */
@Command(
    name = "nfs",
    mixinStandardHelpOptions = true,
    description = {
      "Run an NFS gateway: NFSv3 and MOUNT v3 over TCP for the exports in --exports (the"
          + " /etc/exports syntax). Several gateways may serve one cluster; a file handle from one"
          + " works on every other.",
      "No portmapper is registered: give clients the ports (in a libnfs URL, the"
          + " parameters nfsport and mountport)."
    })
public final class NfsServerCommand implements Callable<Integer> {
  @Option(
      names = "--id",
      defaultValue = "nfs-1",
      description = "this gateway's id (default: ${DEFAULT-VALUE})")
  String id;

  @Option(
      names = "--listen",
      paramLabel = "HOST:PORT",
      defaultValue = "127.0.0.1:2049",
      description = "where NFS is served (default: ${DEFAULT-VALUE}; port 0 picks a free one)")
  String listen;

  @Option(
      names = "--mount-port",
      paramLabel = "PORT",
      description =
          "also serve MOUNT (and NFS) on this port of the same host (default: only --listen)")
  Integer mountPort;

  @Option(
      names = "--exports",
      paramLabel = "FILE",
      description =
          "exports in /etc/exports syntax, e.g. '/data 10.0.0.0/8(rw,root_squash)' (default: the"
              + " whole namespace, read-write, to 127.0.0.1 and ::1 only)")
  Path exports;

  @Option(
      names = "--meta",
      paramLabel = "HOST:PORT,...",
      required = true,
      description = "the meta replicas")
  String meta;

  @Mixin ServerOptions server;

  @Override
  public Integer call() throws Exception {
    server.redirectOutput();
    Config c = server.config();
    Exports e = exports == null ? Exports.parse(Exports.LOCAL) : Exports.read(exports);
    HostPort at = HostPort.parse(listen);
    InetSocketAddress nfs = new InetSocketAddress(at.host(), at.port());
    InetSocketAddress mount =
        mountPort == null || mountPort == at.port()
            ? null
            : new InetSocketAddress(at.host(), mountPort);
    NfsGateway gateway = NfsGateway.start(id, meta, e, nfs, mount, c);
    Closeable http = server.serveMetrics(gateway.metrics());
    ServerRunner.recordPid(server.clusterFile, id);
    ServerRunner.runUntilStopped(gateway, http, "NFS gateway " + id);
    return 0;
  }
}
