package io.tessera.localcluster;

import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.config.Config;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A whole cluster on this machine: one process per server, or all in one JVM. */
public interface LocalCluster extends Closeable {
  ClusterPlan plan();

  /** A client's settings for this cluster, as its administrator. */
  default Config clientConfig() {
    return plan().clientConfig();
  }

  /** A client of this cluster, as its administrator; close it when done. */
  default TesseraFileSystem connect() throws IOException {
    return TesseraFileSystem.connect(clientConfig());
  }

  /**
   * Whether every data server, QoS proxy and NFS gateway of the plan accepts connections. A meta
   * leader just elected counts every data server it knows as up for a heartbeat timeout, so after a
   * restart of the whole cluster "up" alone does not mean a data server runs yet.
   */
  default boolean serversListen() {
    List<InetSocketAddress> listeners = new ArrayList<>();
    for (String id : plan().dataIds()) {
      listeners.add(new InetSocketAddress(plan().host(id), plan().dataPort(id)));
    }
    if (plan().qos()) {
      for (String id : plan().dataIds()) {
        listeners.add(new InetSocketAddress(plan().host(id), plan().proxyPort(id)));
      }
    }
    if (plan().nfs()) {
      listeners.add(new InetSocketAddress(ClusterPlan.LOOPBACK, plan().nfsPort()));
      listeners.add(new InetSocketAddress(ClusterPlan.LOOPBACK, plan().mountPort()));
    }
    for (InetSocketAddress at : listeners) {
      try (Socket s = new Socket()) {
        s.connect(at, 1000);
      } catch (IOException notYet) {
        return false;
      }
    }
    return true;
  }

  /** Waits until a meta leader is elected and every data server is up and listening. */
  default ClusterStatus awaitReady(Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String lastProblem = "no answer yet";
    try (TesseraFileSystem fs = connect()) {
      while (System.nanoTime() < deadline) {
        checkAlive();
        try {
          ClusterStatus s = fs.admin().status();
          long up = s.dataServers().stream().filter(ClusterStatus.DataServer::up).count();
          boolean leader = s.replicas().stream().anyMatch(ClusterStatus.Replica::leader);
          if (leader && up == plan().dataCount() && serversListen()) {
            checkAlive(); // the answer must have come from this cluster's own servers
            return s;
          }
          lastProblem =
              (leader ? "leader elected" : "no leader yet")
                  + ", "
                  + up
                  + " of "
                  + plan().dataCount()
                  + " data servers up"
                  + (up == plan().dataCount() ? ", not every server listening yet" : "");
        } catch (IOException e) {
          lastProblem = e.getMessage();
        }
        Thread.sleep(200);
      }
    }
    throw new IOException(
        "cluster in "
            + plan().dir()
            + " not ready after "
            + timeout.toSeconds()
            + " s ("
            + lastProblem
            + "); see the logs in "
            + plan().dir().resolve("logs"));
  }

  /** Throws when a server died, so a broken start fails at once instead of timing out. */
  default void checkAlive() throws IOException {}

  /** Stops every server cleanly. */
  @Override
  void close() throws IOException;
}
