package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The region-lock checker: three client processes take turns on one exclusive region while the lock
 * home (the meta leader) and then a client holding the lock are SIGKILLed. Every grant and release
 * is recorded against one clock; no two holders may ever overlap, the locks must be granted again
 * after each kill, and the dead client's locks must be freed with its lease and reported.
 */
class RegionLockFailoverProcessTest {
  private static final int HOLDERS = 3;

  /** A holder's turn: [grant, release] in System.nanoTime; valid: it still held the lease. */
  record Turn(int holder, long granted, long released, boolean valid) {}

  @Test
  void twoConflictingHoldersNeverCoexistAcrossAKilledLockHomeAndAKilledHolder() throws Exception {
    Path dir = TestDirs.fresh("region-locks");
    ClusterPlan plan = new ClusterPlan(dir, 3, 3, TestPorts.freeBase(30));
    List<Process> holders = new ArrayList<>();
    Path stop = dir.resolve("stop");
    try (ProcessCluster cluster =
        ProcessCluster.start(
            plan, ServerLaunchers.defaults(), List.of("-Dtessera.meta.region-lease=4s"))) {
      cluster.awaitReady(Duration.ofSeconds(120));
      try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
        fs.mkdirs("/regions");
        fs.createFile("/regions/checked", CreateOptions.erasure(2, 1)).close();
        for (int h = 0; h < HOLDERS; h++) {
          holders.add(startHolder(plan, "/regions/checked", events(dir, h), stop));
        }
        awaitGrants(dir, 3 * HOLDERS);

        String leader = leader(fs);
        cluster.signal(leader, "KILL");
        long homeKilled = System.nanoTime();
        awaitGrantsAfter(dir, homeKilled, 2 * HOLDERS);
        cluster.restart(leader);

        int victim = 1;
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(5))
            .until(() -> holding(events(dir, victim)));
        new ProcessBuilder("kill", "-KILL", String.valueOf(holders.get(victim).pid()))
            .start()
            .waitFor();
        assertThat(holders.get(victim).waitFor(30, TimeUnit.SECONDS)).isTrue();
        long holderKilled = System.nanoTime();
        awaitGrantsAfter(dir, holderKilled, 2 * (HOLDERS - 1));
        assertThat(metaLogs(plan))
            .as("the home reports the dead holder's locks freed with its lease")
            .contains("stopped renewing its lease");

        Files.createFile(stop);
        for (int h = 0; h < HOLDERS; h++) {
          if (h != victim) {
            assertThat(holders.get(h).waitFor(60, TimeUnit.SECONDS)).isTrue();
          }
        }
        List<Turn> turns = new ArrayList<>();
        for (int h = 0; h < HOLDERS; h++) {
          turns.addAll(turns(events(dir, h), h, h == victim ? holderKilled : Long.MAX_VALUE));
        }
        List<String> overlaps = overlaps(turns);
        long lost = turns.stream().filter(t -> !t.valid()).count();
        System.out.printf(
            "region lock checker: %d grants, 2 kills (lock home %s, holder %d), %d overlaps,"
                + " %d turns outlived their lease%n",
            turns.size(), leader, victim, overlaps.size(), lost);
        assertThat(overlaps).as("conflicting holders at once").isEmpty();
        assertThat(turns.stream().filter(t -> t.granted() > holderKilled).count())
            .isGreaterThanOrEqualTo(2 * (HOLDERS - 1));
      }
    } finally {
      holders.forEach(Process::destroyForcibly);
    }
  }

  private static Process startHolder(ClusterPlan plan, String path, Path events, Path stop)
      throws IOException {
    List<String> cmd =
        ClientProcesses.command(
            plan,
            RegionLockHolder.class,
            plan.metaAddresses(),
            path,
            events.toString(),
            stop.toString());
    return new ProcessBuilder(cmd)
        .redirectErrorStream(true)
        .redirectOutput(events.resolveSibling(events.getFileName() + ".out").toFile())
        .start();
  }

  private static Path events(Path dir, int holder) {
    return dir.resolve("holder-" + holder + ".events");
  }

  private static List<String> lines(Path events) throws IOException {
    return Files.exists(events) ? Files.readAllLines(events, StandardCharsets.UTF_8) : List.of();
  }

  /** Whether the holder's last event is a grant: it holds the lock now. */
  private static boolean holding(Path events) throws IOException {
    List<String> l = lines(events);
    return !l.isEmpty() && l.get(l.size() - 1).startsWith("G ");
  }

  private static long grantsAfter(Path dir, long since) throws IOException {
    long n = 0;
    for (int h = 0; h < HOLDERS; h++) {
      n +=
          lines(events(dir, h)).stream()
              .filter(s -> s.startsWith("G ") && Long.parseLong(s.substring(2)) > since)
              .count();
    }
    return n;
  }

  private static void awaitGrants(Path dir, long n) {
    awaitGrantsAfter(dir, Long.MIN_VALUE, n);
  }

  private static void awaitGrantsAfter(Path dir, long since, long n) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> grantsAfter(dir, since) >= n);
  }

  /** The holder's turns; one still open when it was killed ends at {@code killedAt}. */
  private static List<Turn> turns(Path events, int holder, long killedAt) throws IOException {
    List<Turn> out = new ArrayList<>();
    long granted = -1;
    for (String s : lines(events)) {
      String[] f = s.split(" ", 3);
      if (f.length < 2 || f[0].equals("T")) {
        continue;
      }
      long t;
      try {
        t = Long.parseLong(f[1]);
      } catch (NumberFormatException e) {
        continue; // a line cut short by the kill
      }
      if (f[0].equals("G")) {
        granted = t;
      } else if (granted >= 0) {
        out.add(new Turn(holder, granted, t, f[0].equals("R")));
        granted = -1;
      }
    }
    if (granted >= 0) {
      out.add(new Turn(holder, granted, Math.min(killedAt, System.nanoTime()), true));
    }
    return out;
  }

  /** Pairs of turns of different holders whose held times overlap (lost turns not counted). */
  private static List<String> overlaps(List<Turn> turns) {
    List<Turn> valid =
        turns.stream().filter(Turn::valid).sorted(Comparator.comparingLong(Turn::granted)).toList();
    List<String> out = new ArrayList<>();
    Turn open = null;
    for (Turn t : valid) {
      if (open != null && t.granted() < open.released() && t.holder() != open.holder()) {
        out.add(open + " and " + t);
      }
      if (open == null || t.released() > open.released()) {
        open = t;
      }
    }
    return out;
  }

  private static String metaLogs(ClusterPlan plan) throws IOException {
    StringBuilder all = new StringBuilder();
    for (String id : List.of("m1", "m2", "m3")) {
      Path log = plan.logFile(id);
      if (Files.exists(log)) {
        all.append(Files.readString(log, StandardCharsets.UTF_8));
      }
    }
    return all.toString();
  }

  private static String leader(TesseraFileSystem fs) throws Exception {
    return fs.admin().status().replicas().stream()
        .filter(ClusterStatus.Replica::leader)
        .findFirst()
        .orElseThrow()
        .id();
  }
}
