package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.client.admin.FileCheck;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import io.tessera.meta.snapshot.SnapshotCoordinator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Snapshots against one OS process per server, killed with real signals: the meta leader SIGKILLed
 * between a snapshot's PREPARE and COMMIT (the coordinator pauses there: a fault-injection
 * setting), a data server down while a snapshot is taken, and the whole cluster stopped and started
 * again.
 */
class SnapshotProcessTest {
  private static final int CHUNK = 256 << 10;

  @Test
  void aSnapshotCutByALeaderCrashCompletesOrIsAbsentAndEverySnapshotSurvivesDownServersAndARestart()
      throws Exception {
    Path dir = TestDirs.fresh("snapshot-process");
    ClusterPlan plan = new ClusterPlan(dir, 3, 6, TestPorts.freeBase(30));
    List<String> launcher = ServerLaunchers.withFaults(SnapshotCoordinator.BEFORE_COMMIT + "=3s");
    byte[] before = bytes(3 << 20, 1);
    List<String> snapshots = new ArrayList<>();
    try (ProcessCluster cluster = ProcessCluster.start(plan, launcher, List.of())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
        fs.mkdirs("/snap", CreateOptions.erasure(4, 2).stripeUnit(64 << 10));
        write(fs, "/snap/a", before);
        TesseraFile log = fs.createFile("/snap/log", CreateOptions.defaults());
        AtomicInteger acked = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new ArrayList<>();
        Thread writer =
            new Thread(
                () -> {
                  try {
                    for (int c = 0; !stop.get(); c++) {
                      log.write((long) c * CHUNK, bytes(CHUNK, 100 + c), 0, CHUNK);
                      acked.incrementAndGet();
                    }
                  } catch (Throwable e) {
                    failures.add(e);
                  }
                },
                "appender");
        writer.start();

        // 1. the leader dies after every data server is READY, before the commit
        String leader = leader(fs);
        long logStart = Files.size(plan.logFile(leader));
        CompletableFuture<SnapshotInfo> mid =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return fs.admin().snapshots().create("mid");
                  } catch (Exception e) {
                    throw new CompletionException(e);
                  }
                });
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    logSince(plan.logFile(leader), logStart)
                        .contains("pausing 3000 ms before the commit"));
        cluster.signal(leader, "KILL");
        int ackedAtKill = acked.get();
        await("writes resume after the leader died mid-snapshot")
            .atMost(Duration.ofSeconds(20))
            .until(() -> acked.get() > ackedAtKill + 4 || !failures.isEmpty());
        boolean completed;
        try {
          mid.join();
          completed = true;
        } catch (Exception e) {
          completed = false;
        }
        List<String> names =
            fs.admin().snapshots().list().stream().map(SnapshotInfo::name).toList();
        assertThat(names.contains("mid"))
            .as("the snapshot is listed exactly when its creation completed")
            .isEqualTo(completed);
        if (completed) {
          snapshots.add("mid");
          assertThat(read(fs, "/.snapshots/mid/snap/a")).isEqualTo(before);
        }
        cluster.restart(leader);

        // 2. a data server is down while a snapshot is taken: readable degraded, then after it
        // returns
        cluster.signal("ds-3", "KILL");
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    fs.admin().status().dataServers().stream()
                        .anyMatch(d -> d.id().equals("ds-3") && !d.up()));
        SnapshotInfo degraded = fs.admin().snapshots().create("degraded");
        snapshots.add("degraded");
        assertThat(degraded.missingServers()).containsExactly("ds-3");
        assertThat(read(fs, "/.snapshots/degraded/snap/a")).isEqualTo(before);
        cluster.restart("ds-3");
        // ds-3 comes back stale for the log the appender has grown by ~100 MiB meanwhile; the
        // rebuild copies it under load, at a share of the appender's time
        cluster.awaitReady(Duration.ofSeconds(120));
        write(fs, "/snap/a", bytes(3 << 20, 2)); // overwrites land on ds-3 again, at the new epoch
        assertThat(read(fs, "/.snapshots/degraded/snap/a")).isEqualTo(before);
        FileCheck check = fs.admin().check("/.snapshots/degraded/snap/a", true);
        assertThat(check.parityMismatches()).isZero();
        assertThat(check.unreadableStripes()).isZero();

        stop.set(true);
        writer.join();
        assertThat(failures).as("writes refused while the leader died mid-snapshot").isEmpty();
        byte[] chunk = new byte[CHUNK];
        for (int c = 0; c < acked.get(); c++) {
          log.readFully((long) c * CHUNK, chunk, 0, CHUNK);
          assertThat(chunk).as("acknowledged chunk %d", c).isEqualTo(bytes(CHUNK, 100 + c));
        }
      }
    }
    // 3. the whole cluster stops and starts again: every snapshot is there and readable
    try (ProcessCluster again = ProcessCluster.start(plan, launcher, List.of())) {
      again.awaitReady(Duration.ofSeconds(120));
      try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
        assertThat(fs.admin().snapshots().list().stream().map(SnapshotInfo::name).toList())
            .containsExactlyElementsOf(snapshots);
        for (String s : snapshots) {
          assertThat(read(fs, "/.snapshots/" + s + "/snap/a")).as(s).isEqualTo(before);
        }
        assertThat(read(fs, "/snap/a")).isEqualTo(bytes(3 << 20, 2));
      }
    }
  }

  private static String logSince(Path log, long from) throws Exception {
    byte[] all = Files.readAllBytes(log);
    return new String(
        all,
        (int) Math.min(from, all.length),
        (int) Math.max(0, all.length - from),
        StandardCharsets.UTF_8);
  }

  private static String leader(TesseraFileSystem fs) throws Exception {
    ClusterStatus s = fs.admin().status();
    return s.replicas().stream()
        .filter(ClusterStatus.Replica::leader)
        .findFirst()
        .orElseThrow()
        .id();
  }

  private static void write(TesseraFileSystem fs, String path, byte[] data) throws Exception {
    try (TesseraFile f = fs.createFile(path, CreateOptions.defaults().overwrite(true))) {
      f.write(0, data, 0, data.length);
    }
  }

  private static byte[] read(TesseraFileSystem fs, String path) throws Exception {
    try (TesseraFile f = fs.openFile(path)) {
      byte[] out = new byte[(int) f.size()];
      f.readFully(0, out, 0, out.length);
      return out;
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
