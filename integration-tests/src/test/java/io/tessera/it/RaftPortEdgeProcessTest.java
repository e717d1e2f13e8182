package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import io.tessera.meta.server.MetaPeer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A port scanner, or a misconfigured client, sends junk to a meta replica's Raft port: twenty
 * connections of 26 bytes each, some undecodable, some declaring a message of gigabytes, some
 * stopping half-way through one. Before, this wrote thousands of log lines with stack traces and
 * left the connections open. Each bad peer must cost at most one log line and its connection (the
 * port speaks only TLS with meta replicas' certificates: junk ends in the handshake), while the
 * replicas keep replicating and clients keep writing and reading.
 */
class RaftPortEdgeProcessTest {
  private static final int BAD_PEERS = 20;
  private static final Duration STALLED = Duration.ofSeconds(3);

  @Test
  void aBadPeerOnTheRaftPortCostsOneLogLineAndItsConnection() throws Exception {
    Path dir = TestDirs.fresh("raft-port-edge");
    ClusterPlan plan = new ClusterPlan(dir, 3, 2, TestPorts.freeBase(30));
    try (ProcessCluster cluster =
            ProcessCluster.start(
                plan,
                ServerLaunchers.defaults(),
                List.of("-Dtessera.rpc.stalled-frame-timeout=" + STALLED.toMillis() + "ms"));
        TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      MetaPeer target = plan.metaPeers().get(0);
      Path log = plan.logFile(target.id());
      int linesBefore = Files.readAllLines(log).size();

      List<Socket> badPeers = new ArrayList<>();
      for (int i = 0; i < BAD_PEERS; i++) {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(target.host(), target.raftPort()), 5000);
        OutputStream out = s.getOutputStream();
        out.write(junk(i));
        out.flush();
        badPeers.add(s);
      }

      byte[] data = new byte[3 << 20];
      new Random(7).nextBytes(data);
      try (OutputStream w = fs.create("/written-meanwhile", CreateOptions.defaults())) {
        w.write(data);
      }
      try (InputStream r = fs.open("/written-meanwhile")) {
        assertThat(r.readAllBytes()).as("a put and a get while the junk arrives").isEqualTo(data);
      }

      for (int i = 0; i < BAD_PEERS; i++) {
        assertThat(closedByServer(badPeers.get(i), STALLED.plusSeconds(15)))
            .as("bad peer %d (%s) is disconnected", i, kind(i))
            .isTrue();
      }
      List<String> written = Files.readAllLines(log);
      List<String> added = written.subList(linesBefore, written.size());
      assertThat(added.stream().filter(l -> !l.contains("INFO")))
          .as("at most one line per bad peer, in:%n%s", String.join("\n", added))
          .hasSizeLessThanOrEqualTo(BAD_PEERS);
      assertThat(added)
          .as("no stack traces")
          .noneMatch(l -> l.startsWith("\tat ") || l.contains("Exception"));
      assertThat(fs.admin().status().replicas())
          .as("the replicas still form a group")
          .anyMatch(ClusterStatus.Replica::leader);
    }
  }

  private static String kind(int i) {
    return switch (i % 3) {
      case 0 -> "undecodable";
      case 1 -> "declares 4 GiB";
      default -> "stops half-way";
    };
  }

  /** 26 bytes: a message length Ratis frames with (varint32), then what follows it. */
  private static byte[] junk(int i) {
    byte[] b = new byte[26];
    switch (i % 3) {
      case 0 -> { // a whole 25-byte message whose bytes are no protobuf
        b[0] = 25;
        Arrays.fill(b, 1, 26, (byte) 0xff);
      }
      case 1 -> { // a length of 2^32 - 1, then the start of a message that size
        b[0] = (byte) 0xff;
        b[1] = (byte) 0xff;
        b[2] = (byte) 0xff;
        b[3] = (byte) 0xff;
        b[4] = 0x0f;
      }
      default -> { // a length of 65536, then 23 of those bytes and nothing more
        b[0] = (byte) 0x80;
        b[1] = (byte) 0x80;
        b[2] = 0x04;
      }
    }
    return b;
  }

  /** Whether the server closes the connection within {@code limit} (reads to end of stream). */
  private static boolean closedByServer(Socket s, Duration limit) throws IOException {
    long deadline = System.nanoTime() + limit.toNanos();
    try (s) {
      InputStream in = s.getInputStream();
      while (System.nanoTime() < deadline) {
        s.setSoTimeout((int) Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        try {
          if (in.read() < 0) {
            return true;
          }
        } catch (SocketTimeoutException e) {
          return false;
        } catch (IOException reset) {
          return true; // closed with unread bytes: a reset
        }
      }
      return false;
    }
  }
}
