package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.FileCheck;
import io.tessera.common.config.Config;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The randomized model check of the redundancy issue, one OS process per server: random small
 * writes, truncates that shrink and grow, and reads on files of four layouts (RS 6+3 with 4 KiB
 * units, 4+2 with 64 KiB, 2+1 with 16 KiB, and a log file of 4+2 logs), each compared with an
 * in-memory model, while a fault strikes mid-run. Afterwards recovery must report every file fully
 * redundant, fsck must agree (no missing shard anywhere, parity verified), and every byte must
 * match the model.
 *
 * <p>What it found: a data server killed and restarted was rebuilt with zeros stored where the
 * other servers had holes (truncated or never written), beside parity never written, so fsck
 * counted missing shards on every other server for good while recovery said every shard was fully
 * redundant.
 *
 * <p>Each fault's run lasts {@code -Dtessera.it.model-seconds} (default 20) of operations; the seed
 * is random unless {@code -Dtessera.it.model-seed} gives one, and every failure prints it.
 */
class RandomIoUnderFaultsProcessTest {
  static final Duration HEARTBEAT = Duration.ofMillis(500);
  static final Duration TIMEOUT = Duration.ofSeconds(2);
  static final Duration HEAL_LIMIT = Duration.ofSeconds(120);

  static ProcessCluster cluster;
  static ClusterPlan plan;
  static TesseraFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    plan = new ClusterPlan(TestDirs.fresh("random-io-faults"), 3, 9, TestPorts.freeBase(40));
    cluster =
        ProcessCluster.start(
            plan,
            ServerLaunchers.defaults(),
            List.of(
                "-Dtessera.meta.data-server-timeout=" + TIMEOUT.toMillis() + "ms",
                "-Dtessera.data.heartbeat-interval=" + HEARTBEAT.toMillis() + "ms",
                "-Dtessera.meta.heartbeat-interval=" + HEARTBEAT.toMillis() + "ms"));
    cluster.awaitReady(Duration.ofSeconds(120));
    fs =
        TesseraFileSystem.connect(
            Config.of(
                Map.of(
                    "tessera.client.meta",
                    plan.metaAddresses(),
                    "tessera.security.credentials",
                    plan.adminCredentials().toString(),
                    "tessera.client.down-server-retry-after",
                    "1s",
                    "tessera.client.lock-lease",
                    "5s")));
  }

  @AfterAll
  static void stop() {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /** The run: the server comes back after the last operation, so recovery works alone. */
  @Test
  void aDataServerKilledMidRunIsRebuiltUntilFsckFindsNoMissingShard() throws Exception {
    run(
        "data-server-kill",
        Undo.AFTER_THE_RUN,
        (model, rnd) -> {
          String victim = plan.dataIds().get(rnd.nextInt(plan.dataIds().size()));
          kill(victim);
          return () -> cluster.restart(victim);
        });
  }

  /** Both come back while writes and truncates go on: their rebuilds race the operations. */
  @Test
  void twoDataServersKilledMidRunAreRebuiltWhileWritesAndTruncatesGoOn() throws Exception {
    run(
        "two-data-servers-kill",
        Undo.MID_RUN,
        (model, rnd) -> {
          List<String> ids = new ArrayList<>(plan.dataIds());
          Collections.shuffle(ids, rnd);
          List<String> victims = List.copyOf(ids.subList(0, 2));
          for (String v : victims) {
            kill(v);
          }
          return () -> {
            for (String v : victims) {
              cluster.restart(v);
            }
          };
        });
  }

  @Test
  void aMetaLeaderKilledMidRunLosesNoOperationAndLeavesEveryFileRedundant() throws Exception {
    run(
        "meta-leader-kill",
        Undo.MID_RUN,
        (model, rnd) -> {
          String leader = ClusterWatch.leader(fs);
          cluster.signal(leader, "KILL");
          ClusterWatch.await(
              "a new meta leader",
              () -> {
                String now = ClusterWatch.leader(fs);
                return !now.isEmpty() && !now.equals(leader);
              },
              HEAL_LIMIT);
          return () -> cluster.restart(leader);
        });
  }

  @Test
  void aClientKilledBetweenItsWritePhasesLeavesTheModelsBytesAndRepairedParity() throws Exception {
    run(
        "client-kill",
        Undo.MID_RUN,
        (model, rnd) -> {
          RandomIoModel.ModelledFile f =
              model.files().stream()
                  .max(Comparator.comparingInt(x -> x.model.length))
                  .orElseThrow();
          // inside the file: a write that grows it records the new size between its phases
          int length = Math.max(1, Math.min(f.model.length, 200_000));
          crashWriterBetweenPhases(f.path, length, rnd.nextLong());
          return () -> {};
        });
  }

  private static void kill(String dataServer) throws Exception {
    cluster.signal(dataServer, "KILL");
    ClusterWatch.await(
        dataServer + " found down",
        () -> ClusterWatch.state(fs, dataServer).equals("down"),
        HEAL_LIMIT);
  }

  /**
   * When what a fault broke is restarted: half-way through the run, or after its last operation.
   */
  private enum Undo {
    MID_RUN,
    AFTER_THE_RUN
  }

  /** Injects a fault and returns how to undo it (restart what was killed). */
  private interface Fault {
    Restart inject(RandomIoModel model, Random rnd) throws Exception;
  }

  private interface Restart {
    void run() throws Exception;
  }

  /**
   * Runs the model for the configured time: a quarter healthy, then the fault, then the rest, with
   * what the fault broke restarted as {@code undo} says. Then recovery must report every server up
   * with nothing stale, fsck must agree at that moment (no missing shard, parity verified), and
   * every byte must match the model.
   */
  private static void run(String name, Undo undo, Fault fault) throws Exception {
    long seed = Long.getLong("tessera.it.model-seed", ThreadLocalRandom.current().nextLong());
    long seconds = Long.getLong("tessera.it.model-seconds", 20);
    Random faultRnd = new Random(seed ^ 0x5DEECE66DL);
    RandomIoModel model = new RandomIoModel(fs, seed);
    String dir = "/model-" + name;
    fs.mkdirs(dir);
    model.add(dir + "/rs63-4k", CreateOptions.erasure(6, 3).stripeUnit(4 << 10));
    model.add(dir + "/rs42-64k", CreateOptions.erasure(4, 2).stripeUnit(64 << 10));
    model.add(dir + "/rs21-16k", CreateOptions.erasure(2, 1).stripeUnit(16 << 10));
    // log-structured: each write a writer of its own, each read a merge of their indexes
    model.add(dir + "/log42-64k", CreateOptions.erasure(4, 2).stripeUnit(64 << 10).log(true));
    try {
      long quarter = seconds * 250_000_000L;
      long start = System.nanoTime();
      runFor(model, start + quarter);
      Restart restart = fault.inject(model, faultRnd);
      long undoAt = start + (undo == Undo.MID_RUN ? 2 : 4) * quarter;
      // the restart comes on time even while an operation waits: a read of a stripe with two
      // units on the two killed servers (a 2+1 file) waits for them to come back
      ScheduledExecutorService undoer = Executors.newSingleThreadScheduledExecutor();
      ScheduledFuture<Long> restarted =
          undoer.schedule(
              () -> {
                restart.run();
                return System.nanoTime();
              },
              undoAt - System.nanoTime(),
              TimeUnit.NANOSECONDS);
      long restartedAt;
      try {
        runFor(model, start + 4 * quarter);
        restartedAt = restarted.get();
      } finally {
        undoer.shutdownNow();
      }
      ClusterWatch.await(
          "every data server up and nothing stale after " + name,
          () -> ClusterWatch.healed(cluster, fs),
          HEAL_LIMIT);
      long redundantMs = (System.nanoTime() - restartedAt) / 1_000_000;
      // recovery says every file is fully redundant: fsck must find the same, now
      List<FileCheck> checks = new ArrayList<>();
      for (RandomIoModel.ModelledFile f : model.files()) {
        checks.add(fs.admin().check(f.path, true));
      }
      long missing = checks.stream().mapToLong(FileCheck::missingShards).sum();
      String clean = observeUntilClean(model, restartedAt, missing);
      long differ = model.differingBytes();
      System.out.printf(
          Locale.ROOT,
          "random I/O under '%s': %d operations (%d retried); recovery reported every "
              + "file redundant %d ms after the restart, when fsck counted %d missing shards%s; %d bytes differ from the "
              + "model; %s%n",
          name,
          model.ops(),
          model.retries(),
          redundantMs,
          missing,
          clean,
          differ,
          model.replay());
      for (FileCheck c : checks) {
        assertThat(c.verdict())
            .as("fsck when recovery reports full redundancy: %s", c)
            .isEqualTo("HEALTHY");
      }
      assertThat(differ).as("bytes that differ from the model").isZero();
    } catch (AssertionError | Exception e) {
      throw new AssertionError(
          "random I/O under '" + name + "' failed: " + e.getMessage() + " [" + model.replay() + "]",
          e);
    }
  }

  /**
   * For measurements ({@code -Dtessera.it.model-observe-seconds=N}): polls fsck until no shard is
   * missing, at most N seconds, and says when that was; "" without a window or when none was
   * missing.
   */
  private static String observeUntilClean(RandomIoModel model, long restartedAt, long missing)
      throws Exception {
    long window = Long.getLong("tessera.it.model-observe-seconds", 0);
    if (window <= 0 || missing == 0) {
      return "";
    }
    long deadline = System.nanoTime() + window * 1_000_000_000L;
    long now = missing;
    while (System.nanoTime() - deadline < 0) {
      Thread.sleep(1000);
      now = 0;
      for (RandomIoModel.ModelledFile f : model.files()) {
        now += fs.admin().check(f.path, true).missingShards();
      }
      if (now == 0) {
        return "; fsck clean "
            + (System.nanoTime() - restartedAt) / 1_000_000
            + " ms after the restart";
      }
    }
    return "; still " + now + " missing " + window + " s later";
  }

  private static void runFor(RandomIoModel model, long untilNanos) throws Exception {
    while (System.nanoTime() - untilNanos < 0) {
      model.step();
    }
  }

  /**
   * A second client process writes {@code [0, length)} of the file and is SIGKILLed between its
   * phases.
   */
  private static void crashWriterBetweenPhases(String path, int length, long seed)
      throws Exception {
    List<String> cmd =
        List.of(
            ProcessHandle.current().info().command().orElse("java"),
            "-cp",
            System.getProperty("java.class.path"),
            "-Dtessera.security.credentials=" + plan.adminCredentials(),
            CrashingWriter.class.getName(),
            plan.metaAddresses(),
            path,
            "0",
            String.valueOf(length),
            String.valueOf(seed),
            "between");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.contains("PAUSED")) {
        // its log lines
      }
      assertThat(line).as("the crashing writer reached the point between its phases").isNotNull();
      new ProcessBuilder("kill", "-KILL", String.valueOf(p.pid())).start().waitFor();
      p.waitFor(30, TimeUnit.SECONDS);
    } finally {
      p.destroyForcibly();
    }
  }
}
