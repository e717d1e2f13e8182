package io.tessera.localcluster;

import io.tessera.client.ClientConfigKeys;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;
import io.tessera.common.security.Identity;
import io.tessera.meta.server.MetaPeer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Names, ports and directories of a local cluster. With port base B: meta replica i (from 1)
 * listens for clients on B+2(i-1) and for Raft on B+2(i-1)+1; data server j on B+20+(j-1); the NFS
 * gateway, when there is one, serves NFS on B+18 and MOUNT on B+19. With {@code http}, every server
 * serves /metrics (meta replicas also the console) on its client port + {@link #HTTP_PORT_OFFSET}.
 * Every server listens on 127.0.0.1 unless {@code hosts} names another address for it (tests that
 * run each server in a network namespace of their own).
 */
public record ClusterPlan(
    Path dir,
    int metaCount,
    int dataCount,
    int portBase,
    Map<String, String> hosts,
    boolean qos,
    boolean nfs,
    boolean http) {
  public static final int DEFAULT_PORT_BASE = 9860;
  public static final String LOOPBACK = "127.0.0.1";

  /** QoS proxy j listens on port base + this + (j - 1). */
  static final int PROXY_PORT_OFFSET = 20 + 200;

  public ClusterPlan(Path dir, int metaCount, int dataCount, int portBase) {
    this(dir, metaCount, dataCount, portBase, Map.of());
  }

  public ClusterPlan(
      Path dir, int metaCount, int dataCount, int portBase, Map<String, String> hosts) {
    this(dir, metaCount, dataCount, portBase, hosts, false, false, false);
  }

  /** The same cluster with a QoS proxy in front of each data server. */
  public ClusterPlan withQos() {
    return new ClusterPlan(dir, metaCount, dataCount, portBase, hosts, true, nfs, http);
  }

  /** The same cluster with an NFS gateway exporting the whole namespace to this machine. */
  public ClusterPlan withNfs() {
    return new ClusterPlan(dir, metaCount, dataCount, portBase, hosts, qos, true, http);
  }

  /**
   * The same cluster with HTTP on every server: /metrics, and on the meta replicas the console and
   * its REST API.
   */
  public ClusterPlan withHttp() {
    return new ClusterPlan(dir, metaCount, dataCount, portBase, hosts, qos, nfs, true);
  }

  /** A server's HTTP port is its client port + this. */
  public static final int HTTP_PORT_OFFSET = 1000;

  /** Where server {@code id} serves HTTP (host:port), or null without {@link #withHttp}. */
  public String httpAddress(String id) {
    return http ? host(id) + ":" + (clientPort(id) + HTTP_PORT_OFFSET) : null;
  }

  /** The URL of server {@code id}'s metrics, or null without {@link #withHttp}. */
  public String metricsUrl(String id) {
    return http ? "http://" + httpAddress(id) + "/metrics" : null;
  }

  /** The console's URL (on the first meta replica; every replica serves it), or null. */
  public String consoleUrl() {
    return http ? "http://" + httpAddress("m1") + "/" : null;
  }

  /** Where {@code tessera local} keeps the admin token it created for the console. */
  public Path consoleTokenFile() {
    return dir.resolve("console.token");
  }

  /** Where the cluster CA's key and certificate are kept. */
  public Path caDir() {
    return dir.resolve("ca");
  }

  /** Server {@code id}'s credentials (mode 0600). */
  public Path credentialsFile(String id) {
    return dir.resolve("credentials").resolve(id + ".credentials");
  }

  /** The credentials of the cluster's first administrator (mode 0600). */
  public Path adminCredentials() {
    return dir.resolve("admin.credentials");
  }

  /**
   * Every server of the plan, each with the role its credentials give it: meta replicas, data
   * servers, QoS proxies, the NFS gateway.
   */
  public Map<String, Identity.Role> serverRoles() {
    Map<String, Identity.Role> out = new LinkedHashMap<>();
    metaPeers().forEach(p -> out.put(p.id(), Identity.Role.META));
    dataIds().forEach(id -> out.put(id, Identity.Role.DATA));
    if (qos) {
      dataIds().forEach(id -> out.put(proxyId(id), Identity.Role.PROXY));
    }
    if (nfs) {
      out.put(NFS_ID, Identity.Role.GATEWAY);
    }
    return out;
  }

  /** A client's settings for this cluster, as its administrator. */
  public Config clientConfig() {
    return Config.of(
        Map.of(
            ClientConfigKeys.Cluster.META.key(),
            metaAddresses(),
            SecurityConfigKeys.CREDENTIALS.key(),
            adminCredentials().toString()));
  }

  /**
   * {@code args} with server {@code id}'s credentials, and {@code --http} when this plan serves
   * HTTP.
   */
  private List<String> withHttp(String id, List<String> args) {
    List<String> out = new ArrayList<>(args);
    out.add("--credentials");
    out.add(credentialsFile(id).toString());
    if (http) {
      out.add("--http");
      out.add(httpAddress(id));
    }
    return out;
  }

  /** The id of the NFS gateway of a local cluster. */
  public static final String NFS_ID = "nfs-1";

  public int nfsPort() {
    return portBase + 18;
  }

  public int mountPort() {
    return portBase + 19;
  }

  public String nfsAddress() {
    return LOOPBACK + ":" + nfsPort();
  }

  /** Arguments after the launcher command that start the NFS gateway. */
  public List<String> nfsArgs() {
    return withHttp(
        NFS_ID,
        List.of(
            "server",
            "nfs",
            "--id",
            NFS_ID,
            "--listen",
            nfsAddress(),
            "--mount-port",
            String.valueOf(mountPort()),
            "--meta",
            metaAddresses(),
            "--cluster-file",
            clusterFile().toString(),
            "--log",
            logFile(NFS_ID).toString()));
  }

  public ClusterPlan {
    hosts = Map.copyOf(hosts);
    dir = dir.toAbsolutePath().normalize();
    if (metaCount < 1 || metaCount > 9) {
      throw new IllegalArgumentException(
          "--meta must be 1 to 9 replicas (3 or 5 tolerate failures), got " + metaCount);
    }
    if (dataCount < 1 || dataCount > 200) {
      throw new IllegalArgumentException("--data-servers must be 1 to 200, got " + dataCount);
    }
    if (portBase < 1024
        || portBase + (qos ? PROXY_PORT_OFFSET : 20) + dataCount + (http ? HTTP_PORT_OFFSET : 0)
            > 65535) {
      throw new IllegalArgumentException(
          "--port-base "
              + portBase
              + " leaves no room for "
              + dataCount
              + " data servers below port 65536 (and must be at least 1024)");
    }
  }

  public List<MetaPeer> metaPeers() {
    List<MetaPeer> out = new ArrayList<>();
    for (int i = 1; i <= metaCount; i++) {
      out.add(
          new MetaPeer("m" + i, host("m" + i), portBase + 2 * (i - 1), portBase + 2 * (i - 1) + 1));
    }
    return out;
  }

  /**
   * Fails naming the first port of the plan that something else listens on (another cluster, or
   * another program): its server could not start, and the launcher would talk to the other one.
   */
  public void requirePortsFree() {
    List<Integer> ports = new ArrayList<>();
    metaPeers()
        .forEach(
            p -> {
              ports.add(p.clientPort());
              ports.add(p.raftPort());
            });
    dataIds().forEach(id -> ports.add(dataPort(id)));
    if (qos) {
      dataIds().forEach(id -> ports.add(proxyPort(id)));
    }
    if (nfs) {
      ports.add(nfsPort());
      ports.add(mountPort());
    }
    if (http) {
      for (int p : List.copyOf(ports)) {
        if (!(nfs && p == mountPort()) && metaPeers().stream().noneMatch(m -> m.raftPort() == p)) {
          ports.add(p + HTTP_PORT_OFFSET);
        }
      }
    }
    for (int port : ports) {
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress(LOOPBACK, port));
      } catch (IOException e) {
        throw new IllegalStateException(
            "port "
                + port
                + " on "
                + LOOPBACK
                + " is in use (another cluster, or "
                + "another program): give this cluster another --port-base");
      }
    }
  }

  public String peersSpec() {
    return metaPeers().stream().map(MetaPeer::toString).collect(Collectors.joining(","));
  }

  public String metaAddresses() {
    return metaPeers().stream().map(MetaPeer::clientAddress).collect(Collectors.joining(","));
  }

  public List<String> dataIds() {
    List<String> out = new ArrayList<>();
    for (int j = 1; j <= dataCount; j++) {
      out.add("ds-" + j);
    }
    return out;
  }

  public int dataPort(String id) {
    return portBase + 20 + Integer.parseInt(id.substring(3)) - 1;
  }

  /**
   * The port clients reach server {@code id} on: a meta replica, data server, QoS proxy or NFS
   * gateway.
   */
  public int clientPort(String id) {
    if (id.equals(NFS_ID)) {
      return nfsPort();
    }
    for (MetaPeer p : metaPeers()) {
      if (p.id().equals(id)) {
        return p.clientPort();
      }
    }
    return id.startsWith(PROXY_PREFIX)
        ? proxyPort(id.substring(PROXY_PREFIX.length()))
        : dataPort(id);
  }

  private static final String PROXY_PREFIX = "proxy-";

  /** The id of the QoS proxy in front of data server {@code dataId}. */
  public static String proxyId(String dataId) {
    return PROXY_PREFIX + dataId;
  }

  public int proxyPort(String dataId) {
    return portBase + PROXY_PORT_OFFSET + Integer.parseInt(dataId.substring(3)) - 1;
  }

  public String proxyAddress(String dataId) {
    return host(dataId) + ":" + proxyPort(dataId);
  }

  /** Arguments after the launcher command that start the QoS proxy of data server {@code id}. */
  public List<String> proxyArgs(String dataId) {
    return withHttp(
        proxyId(dataId),
        List.of(
            "server",
            "proxy",
            "--id",
            proxyId(dataId),
            "--listen",
            proxyAddress(dataId),
            "--data-server",
            dataAddress(dataId),
            "--meta",
            metaAddresses(),
            "--cluster-file",
            clusterFile().toString(),
            "--log",
            logFile(proxyId(dataId)).toString()));
  }

  /** The address server {@code id} listens on. */
  public String host(String id) {
    if (id.startsWith(PROXY_PREFIX)) {
      id = id.substring(PROXY_PREFIX.length()); // a proxy runs beside its data server
    }
    return hosts.getOrDefault(id, LOOPBACK);
  }

  public String dataAddress(String id) {
    return host(id) + ":" + dataPort(id);
  }

  public Path metaDir(String id) {
    return dir.resolve("meta").resolve(id);
  }

  public Path dataDir(String id) {
    return dir.resolve("data").resolve(id);
  }

  public Path clusterFile() {
    return dir.resolve(ClusterFile.NAME);
  }

  public Path logFile(String id) {
    return dir.resolve("logs").resolve(id + ".log");
  }

  /** Arguments after the launcher command that start meta replica {@code id}. */
  public List<String> metaArgs(String id) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "server",
                "meta",
                "--id",
                id,
                "--peers",
                peersSpec(),
                "--dir",
                metaDir(id).toString(),
                "--cluster-file",
                clusterFile().toString(),
                "--log",
                logFile(id).toString()));
    if (!host(id).equals(LOOPBACK)) {
      args.addAll(List.of("--bind-host", "0.0.0.0")); // its --peers entry is what others reach
    }
    return withHttp(id, args);
  }

  /** Arguments after the launcher command that start data server {@code id}. */
  public List<String> dataArgs(String id) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "server",
                "data",
                "--id",
                id,
                "--dir",
                dataDir(id).toString(),
                "--port",
                String.valueOf(dataPort(id)),
                "--meta",
                metaAddresses(),
                "--cluster-file",
                clusterFile().toString(),
                "--log",
                logFile(id).toString()));
    if (!host(id).equals(LOOPBACK)) {
      // a host of its own (a network namespace): it listens on every address there, as on a
      // machine, and announces the one the others reach
      args.addAll(List.of("--bind-host", "0.0.0.0", "--advertise", host(id)));
    }
    if (qos) {
      args.add("-Dtessera.data.proxy=" + proxyAddress(id));
    }
    return withHttp(id, args);
  }
}
