package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * One OS process per server, killed with real signals. Four writers stream 512 MiB while a meta
 * follower and then the meta leader are SIGKILLed and started again: every byte whose write was
 * acknowledged must read back identical, then again after the whole cluster is stopped and started
 * from its directories. A data server SIGKILLed after acknowledging returns from its directory with
 * every byte.
 */
class MetaFailoverProcessTest {
  private static final int WRITERS = 4;
  private static final int CHUNK = 1 << 20;
  private static final int CHUNKS_PER_WRITER = 128;
  private static final long MIB = 1 << 20;

  @Test
  void acknowledgedWritesSurviveKillingAFollowerThenTheLeaderThenAFullRestart() throws Exception {
    Path dir = TestDirs.fresh("meta-failover");
    ClusterPlan plan = new ClusterPlan(dir, 3, 4, TestPorts.freeBase(30));
    List<String> launcher = ServerLaunchers.defaults();
    long[][] crcs = new long[WRITERS][CHUNKS_PER_WRITER];
    try (ProcessCluster cluster = ProcessCluster.start(plan, launcher, List.of())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
        fs.mkdirs("/failover");
        AtomicLong acked = new AtomicLong();
        List<Thread> writers = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          TesseraFile f =
              fs.createFile("/failover/w" + w, CreateOptions.striped(4).stripeUnit(1 << 20));
          Thread t =
              new Thread(
                  () -> {
                    try {
                      for (int c = 0; c < CHUNKS_PER_WRITER; c++) {
                        byte[] data = chunk(writer, c);
                        f.write((long) c * CHUNK, data, 0, CHUNK);
                        crcs[writer][c] = crc(data);
                        acked.addAndGet(CHUNK);
                      }
                    } catch (Throwable e) {
                      synchronized (failures) {
                        failures.add(e);
                      }
                    }
                  },
                  "writer-" + w);
          writers.add(t);
          t.start();
        }
        awaitAcked(acked, 64 * MIB, failures);
        String follower = follower(fs);
        cluster.signal(follower, "KILL");
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    fs.admin().status().replicas().stream()
                        .anyMatch(r -> r.id().equals(follower) && r.lastContactMillisAgo() > 3000));
        awaitAcked(acked, 160 * MIB, failures);
        cluster.restart(follower);
        awaitAcked(acked, 256 * MIB, failures);
        String leader = leader(fs);
        cluster.signal(leader, "KILL");
        awaitAcked(acked, 352 * MIB, failures);
        cluster.restart(leader);
        for (Thread t : writers) {
          t.join();
        }
        assertThat(failures).as("writes refused while meta replicas died").isEmpty();
        assertThat(acked.get()).isEqualTo(WRITERS * CHUNKS_PER_WRITER * MIB);
        verify(fs, crcs);

        // a data server killed right after acknowledging comes back from its directory with
        // everything
        cluster.signal("ds-2", "KILL");
        cluster.restart("ds-2");
        cluster.awaitReady(Duration.ofSeconds(60));
        verify(fs, crcs);
      }
    }
    try (ProcessCluster again = ProcessCluster.start(plan, launcher, List.of())) {
      again.awaitReady(Duration.ofSeconds(120));
      try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
        verify(fs, crcs);
      }
    }
  }

  private static void awaitAcked(AtomicLong acked, long bytes, List<Throwable> failures) {
    await()
        .atMost(Duration.ofSeconds(180))
        .until(
            () ->
                acked.get() >= bytes
                    || !failures.isEmpty()
                    || acked.get() == WRITERS * CHUNKS_PER_WRITER * MIB);
  }

  private static void verify(TesseraFileSystem fs, long[][] crcs) throws Exception {
    byte[] buf = new byte[CHUNK];
    for (int w = 0; w < WRITERS; w++) {
      TesseraFile f = fs.openFile("/failover/w" + w);
      assertThat(f.size()).isEqualTo(CHUNKS_PER_WRITER * MIB);
      for (int c = 0; c < CHUNKS_PER_WRITER; c++) {
        f.readFully((long) c * CHUNK, buf, 0, CHUNK);
        assertThat(crc(buf)).as("writer %d chunk %d", w, c).isEqualTo(crcs[w][c]);
      }
    }
  }

  private static String leader(TesseraFileSystem fs) throws Exception {
    ClusterStatus s = fs.admin().status();
    return s.replicas().stream()
        .filter(ClusterStatus.Replica::leader)
        .findFirst()
        .orElseThrow()
        .id();
  }

  private static String follower(TesseraFileSystem fs) throws Exception {
    ClusterStatus s = fs.admin().status();
    return s.replicas().stream().filter(r -> !r.leader()).findFirst().orElseThrow().id();
  }

  private static byte[] chunk(int writer, int c) {
    byte[] b = new byte[CHUNK];
    new Random(writer * 100_003L + c).nextBytes(b);
    return b;
  }

  private static long crc(byte[] b) {
    CRC32C crc = new CRC32C();
    crc.update(b);
    return crc.getValue();
  }
}
