package io.tessera.nfs.gateway;

import io.tessera.client.AsyncTesseraFileSystem;
import io.tessera.client.ClientConfigKeys;
import io.tessera.client.VirtualFileSystem;
import io.tessera.common.config.Config;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.nfs.NfsConfigKeys;
import io.tessera.nfs.export.Exports;
import io.tessera.nfs.mount.MountProgram;
import io.tessera.nfs.oncrpc.RpcServer;
import io.tessera.nfs.v3.Gate;
import io.tessera.nfs.v3.Nfs3Procedure;
import io.tessera.nfs.v3.Nfs3Program;
import io.tessera.nfs.v3.OpenFiles;
import io.tessera.nfs.v3.Resolver;
import io.tessera.nfs.v3.Services;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An NFS gateway: NFSv3 and MOUNT v3 for the exports it is given, served through one Tessera
 * client. Any number of gateways may serve one cluster: they keep no state a client depends on but
 * the gathered writes not yet committed.
 */
public final class NfsGateway implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(NfsGateway.class);

  /** The largest record: a WRITE of the largest size (1 MiB) and its headers. */
  private static final int MAX_RECORD = (1 << 20) + 4096;

  private final VirtualFileSystem fs;
  private final RpcServer server;
  private final ScheduledExecutorService sweeper;
  private final InetSocketAddress nfsAddress;
  private final InetSocketAddress mountAddress;
  private final ServerMetrics metrics;

  private NfsGateway(
      VirtualFileSystem fs,
      RpcServer server,
      ScheduledExecutorService sweeper,
      InetSocketAddress nfsAddress,
      InetSocketAddress mountAddress,
      ServerMetrics metrics) {
    this.metrics = metrics;
    this.fs = fs;
    this.server = server;
    this.sweeper = sweeper;
    this.nfsAddress = nfsAddress;
    this.mountAddress = mountAddress;
  }

  /**
   * Starts gateway {@code id} serving at {@code nfs}, and also at {@code mount} unless it is null:
   * both programs answer at both addresses, so a client that finds MOUNT on the NFS port works too.
   * It reaches the cluster with its own server credentials (tessera.security.credentials).
   */
  public static NfsGateway start(
      String id,
      String meta,
      Exports exports,
      InetSocketAddress nfs,
      InetSocketAddress mount,
      Config config)
      throws InterruptedException, IOException {
    TransportSecurity security = TransportSecurity.forServer(config, id, Identity.Role.GATEWAY);
    ServerMetrics metrics = new ServerMetrics("nfs", config);
    Config clientConfig = config.with(ClientConfigKeys.Cluster.META, meta);
    if (clientConfig.get(ClientConfigKeys.Cluster.APP_ID).equals("default")) {
      clientConfig = clientConfig.with(ClientConfigKeys.Cluster.APP_ID, "nfs-gateway");
    }
    VirtualFileSystem fs = AsyncTesseraFileSystem.connect(clientConfig, security);
    byte[] verifier = new byte[8];
    new SecureRandom().nextBytes(verifier);
    OpenFiles files =
        new OpenFiles(
            fs,
            (int) Math.min(Integer.MAX_VALUE, config.get(NfsConfigKeys.GATHER)),
            config.get(NfsConfigKeys.BUFFER),
            config.get(NfsConfigKeys.OPEN_IDLE).toMillis());
    Resolver resolver = new Resolver(fs, config.get(NfsConfigKeys.ATTRIBUTE_CACHE));
    Services services = new Services(fs, resolver, new Gate(exports), files, verifier);
    RpcServer server =
        new RpcServer(
            List.of(
                new Nfs3Program(services, metrics.requests(Nfs3Procedure.class, "NFS calls")),
                new MountProgram(exports, resolver)),
            new RpcServer.Limits(
                MAX_RECORD,
                config.get(NfsConfigKeys.CALLS_PER_CONNECTION),
                config.get(NfsConfigKeys.WORKERS),
                config.get(NfsConfigKeys.CALL_BUFFER)));
    ScheduledExecutorService sweeper = DaemonTimer.named("nfs-open-files");
    try {
      InetSocketAddress nfsAt = server.listen(nfs);
      InetSocketAddress mountAt = mount == null ? nfsAt : server.listen(mount);
      sweeper.scheduleWithFixedDelay(files::closeIdle, 5, 5, TimeUnit.SECONDS);
      LOG.info(
          "NFS gateway serving {} export(s) at {} (MOUNT at {})",
          exports.all().size(),
          hostPort(nfsAt),
          hostPort(mountAt));
      return new NfsGateway(fs, server, sweeper, nfsAt, mountAt, metrics);
    } catch (InterruptedException | RuntimeException e) {
      server.close();
      sweeper.shutdownNow();
      fs.close();
      throw e;
    }
  }

  static String hostPort(InetSocketAddress a) {
    return a.getHostString() + ":" + a.getPort();
  }

  /** What this gateway shows at /metrics. */
  public ServerMetrics metrics() {
    return metrics;
  }

  public InetSocketAddress nfsAddress() {
    return nfsAddress;
  }

  public InetSocketAddress mountAddress() {
    return mountAddress;
  }

  @Override
  public void close() {
    sweeper.shutdownNow();
    server.close();
    fs.close();
  }
}
