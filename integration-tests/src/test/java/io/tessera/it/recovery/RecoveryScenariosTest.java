package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.client.admin.FileCheck;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.common.config.Config;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The failure scenarios of the recovery issue, one OS process per server, real SIGKILL and SIGSTOP:
 * each scenario runs once, or more often ({@code -Dtessera.it.scenario-runs}), under a writing
 * workload whose every acknowledged byte is checked afterwards. The table of results (bytes lost,
 * time to detect, time until full redundancy, foreground throughput while rebuilding) is printed
 * and written to {@code target/recovery-scenarios.md}; the test fails when any scenario lost a
 * byte, was not detected within the DePFS bound, or did not get back to full redundancy.
 */
class RecoveryScenariosTest {
  static final Duration HEARTBEAT = Duration.ofMillis(500);
  static final Duration TIMEOUT = Duration.ofSeconds(2);

  /** DePFS: t_detect <= t_heartbeat + 2 * t_timeout. */
  static final long DETECT_BOUND_MS = HEARTBEAT.toMillis() + 2 * TIMEOUT.toMillis();

  /**
   * How long a scenario may take to get back to full redundancy: the writers keep the files busy,
   * so rebuilds pause for them (tessera.meta.rebuild-lock-share-under-load); two servers killed
   * took 83-102 s in quiet full runs here and over 120 s at load average 15. The table reports the
   * real times.
   */
  static final Duration HEAL_LIMIT = Duration.ofSeconds(180);

  /**
   * How long moving every file off a server may take: by the time the replacement scenarios run,
   * the earlier ones have left 400-500 files on each server, moved 1.3-3.5 a second here as other
   * work loaded the 2 cores (2 min 20 s and 5 min 12 s in two full runs).
   */
  static final Duration MOVE_OFF_LIMIT = Duration.ofMinutes(10);

  /** A server down this long is replaced (its units moved to other servers). */
  static final Duration REPLACE_AFTER = Duration.ofSeconds(20);

  /**
   * Percent of the time rebuilds may hold locks the writers wait on (the default is 5): every
   * stripe of the workload's files is written each second, so at 5 % a scenario spends minutes
   * yielding, which the suite cannot afford; what the rows test (nothing lost, back to full
   * redundancy) is the same.
   */
  static final int REBUILD_LOCK_SHARE = 20;

  static ProcessCluster cluster;
  static ClusterPlan plan;
  static TesseraFileSystem fs;
  static Workload workload;
  static RandomIoRunner randomIo;
  static final List<Row> rows = new ArrayList<>();

  /** MB/s of each 3 s window the workload ran before the first scenario. */
  static List<Double> warmUp = List.of();

  /** The workload's rate is shown in slices this long around each fault. */
  static final long PROFILE_STEP_NANOS = 500_000_000L;

  /**
   * One run's numbers; -1 where a number does not apply. {@code profile}: the workload's MB/s every
   * {@link #PROFILE_STEP_NANOS} from the baseline's start to full redundancy, with the run's events
   * where they happened.
   */
  record Row(
      String scenario,
      int run,
      long bytesLost,
      long detectMs,
      long healMs,
      double before,
      double during,
      String note,
      String profile) {}

  /** A failure to inject and recover from. */
  interface Action {
    void run(Run r) throws Exception;
  }

  /**
   * {@code randomIo}: random small writes and truncates ({@link RandomIoRunner}) run beside the
   * writers.
   */
  record Scenario(String name, boolean randomIo, Action action) {
    Scenario(String name, Action action) {
      this(name, false, action);
    }
  }

  static List<Scenario> table() {
    return List.of(
        // what the fraction reads with nothing wrong: how far this machine's noise moves it
        new Scenario(
            "no fault: the writers alone for 10 s (control)",
            r -> {
              r.rebuildStarts();
              r.sleep(10_000);
            }),
        new Scenario(
            "data server SIGKILLed during writes",
            true,
            r -> {
              String v = r.victim();
              r.signal(v, "KILL");
              r.awaitDown(v);
              r.sleep(2000);
              r.restartData(v);
            }),
        new Scenario(
            "data server SIGKILLed again during its own rebuild",
            r -> {
              String v = r.victim();
              r.killMissWritesAndRestart(v);
              r.signal(v, "KILL");
              r.awaitUntil(v + " down again", () -> r.state(v).equals("down"));
              r.restartData(v);
            }),
        new Scenario(
            "two data servers SIGKILLed (6+3 files)",
            true,
            r -> {
              String v = r.victim();
              String w = r.victim2();
              r.signal(v, "KILL");
              r.signal(w, "KILL");
              r.awaitDown(v);
              r.awaitUntil(w + " down", () -> r.state(w).equals("down"));
              r.sleep(2000);
              r.restartData(v);
              r.restartData(w);
            }),
        new Scenario(
            "data server SIGKILLed and down past tessera.meta.replace-after: replaced, then back",
            r -> {
              String v = r.victim();
              r.signal(v, "KILL");
              r.awaitDown(v);
              r.awaitUntil(
                  v + " draining",
                  () -> r.state(v).equals("draining"),
                  REPLACE_AFTER.plusSeconds(30));
              r.rebuildStarts();
              r.awaitUntil(v + " retired", () -> r.state(v).equals("retired"), MOVE_OFF_LIMIT);
              r.redundant();
              r.note(v + " retired " + r.millisSinceFault() + " ms after the kill");
              r.restartData(
                  v); // comes back: drops the moved files' old shards, then takes files again
            }),
        new Scenario(
            "data server decommissioned during writes, then recommissioned",
            r -> {
              String v = r.victim();
              r.rebuildStarts();
              fs.admin().decommission(v);
              r.awaitUntil(v + " retired", () -> r.state(v).equals("retired"), MOVE_OFF_LIMIT);
              r.redundant();
              r.note("files left on " + v + " after the drain: " + r.placedOn(v));
              fs.admin().recommission(v);
            }),
        new Scenario("client SIGKILLed between the write phases", r -> r.crashWriter("between")),
        new Scenario(
            "client SIGKILLed half-way through phase 2", r -> r.crashWriter("mid-phase-2")),
        new Scenario(
            "meta leader SIGKILLed during writes",
            r -> {
              String leader = r.killMetaLeader();
              r.detected();
              r.sleep(2000);
              r.restartMeta(leader);
            }),
        new Scenario(
            "meta leader SIGKILLed during a rebuild",
            r -> {
              r.killMissWritesAndRestart(r.victim());
              r.restartMeta(r.killMetaLeader());
            }),
        new Scenario(
            "meta leader SIGKILLed during a snapshot",
            r -> {
              String name = "scenario-" + System.nanoTime();
              CompletableFuture<SnapshotInfo> snap =
                  CompletableFuture.supplyAsync(
                      () -> {
                        try {
                          return fs.admin().snapshots().create(name);
                        } catch (Exception e) {
                          return null;
                        }
                      });
              r.sleep(20);
              String leader = r.killMetaLeader();
              r.detected();
              snap.get(90, TimeUnit.SECONDS);
              boolean listed =
                  fs.admin().snapshots().list().stream().anyMatch(s -> s.name().equals(name));
              r.note(listed ? "snapshot completed" : "snapshot absent (aborted)");
              if (listed) {
                fs.admin().snapshots().delete(name);
              }
              r.restartMeta(leader);
            }),
        new Scenario(
            "data server SIGSTOPped past the timeout, then SIGCONT",
            r -> {
              String v = r.victim();
              r.signal(v, "STOP");
              r.awaitDown(v);
              r.sleep(2000);
              r.rebuildStarts();
              r.signal(v, "CONT");
            }),
        new Scenario(
            "shard corrupted on disk (found by the scrubber)",
            r -> {
              String v = r.victim();
              r.signal(v, "TERM");
              r.awaitExit(v);
              r.note(r.corruptValueFiles(v));
              long logFrom = Files.size(plan.logFile(v));
              r.restartData(v);
              r.awaitUntil(
                  "the corruption found",
                  () -> r.logSince(v, logFrom).contains("reporting it for repair"));
              r.detected();
            }),
        new Scenario(
            "disk full on one data server",
            r -> {
              String v = r.victim();
              r.signal(v, "TERM");
              r.awaitExit(v);
              r.restartData(v, List.of("-Dtessera.data.min-free-space=1T"));
              // its heartbeats report no free space: a new file that needs every server is refused
              r.awaitUntil(
                  "a new file refused for lack of space",
                  () -> {
                    try (var f =
                        fs.createFile(
                            "/scenarios/full-" + System.nanoTime(),
                            CreateOptions.erasure(plan.dataIds().size() - 3, 3)
                                .stripeUnit(Workload.UNIT))) {
                      return false;
                    } catch (Exception e) {
                      if (String.valueOf(e.getMessage()).contains("free space")) {
                        r.note("new file refused: " + e.getMessage().replaceAll("\\s+", " "));
                        return true;
                      }
                      return false;
                    }
                  });
              r.detected();
              r.sleep(2000); // the writers go on around it meanwhile
              r.signal(v, "TERM");
              r.awaitExit(v);
              r.restartData(v);
            }));
  }

  @BeforeAll
  static void start() throws Exception {
    Path dir = TestDirs.fresh("recovery-scenarios");
    // ten data servers: each 6+3 file leaves one out, where a replaced server's units can go
    plan = new ClusterPlan(dir, 3, 10, TestPorts.freeBase(50));
    cluster =
        ProcessCluster.start(
            plan,
            ServerLaunchers.defaults(),
            List.of(
                "-Dtessera.meta.data-server-timeout=" + TIMEOUT.toMillis() + "ms",
                "-Dtessera.data.heartbeat-interval=" + HEARTBEAT.toMillis() + "ms",
                "-Dtessera.meta.heartbeat-interval=" + HEARTBEAT.toMillis() + "ms",
                "-Dtessera.data.scrub-rate=64M",
                "-Dtessera.meta.replace-after=" + REPLACE_AFTER.toMillis() + "ms",
                "-Dtessera.meta.rebuild-lock-share-under-load=" + REBUILD_LOCK_SHARE));
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
    workload = new Workload(fs, "/scenarios", 6, 42);
    randomIo =
        new RandomIoRunner(
            fs,
            "/scenarios-random-io",
            Long.getLong("tessera.it.model-seed", ThreadLocalRandom.current().nextLong()));
    warmUp = workload.warmUp();
  }

  @AfterAll
  static void stop() throws Exception {
    if (workload != null) {
      workload.close();
    }
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void everyScenarioLosesNothingIsDetectedInTimeAndGetsBackToFullRedundancy() throws Exception {
    int runs = Integer.getInteger("tessera.it.scenario-runs", 1);
    String only = System.getProperty("tessera.it.scenario", "");
    int seq = 0;
    for (Scenario s : table()) {
      if (!only.isEmpty() && !s.name().contains(only)) {
        continue;
      }
      for (int run = 1; run <= runs; run++) {
        Run r = new Run(s, run, seq++);
        try {
          rows.add(r.execute());
        } catch (Exception | AssertionError e) {
          // the table still shows every other scenario; this row fails the test below
          rows.add(
              new Row(
                  s.name(),
                  run,
                  -1,
                  -1,
                  -1,
                  Double.NaN,
                  Double.NaN,
                  "FAILED: " + e.getMessage(),
                  ""));
          workload.stopWriters();
          workload.verify();
          try {
            randomIo.stopAndCountLost();
          } catch (AssertionError ignored) {
            // reported with the row above; the next run starts the model's operations again
          }
        }
      }
    }
    String table = render();
    System.out.println(table);
    Files.writeString(Path.of("target", "recovery-scenarios.md"), table);
    for (Row row : rows) {
      assertThat(row.note())
          .as("'%s' run %d", row.scenario(), row.run())
          .doesNotStartWith("FAILED");
      assertThat(row.bytesLost())
          .as("acknowledged bytes lost in '%s' run %d", row.scenario(), row.run())
          .isZero();
      assertThat(row.healMs())
          .as("'%s' run %d back to full redundancy", row.scenario(), row.run())
          .isPositive();
      if (row.scenario().startsWith("data server SIG")) {
        assertThat(row.detectMs())
            .as("'%s' run %d detected within heartbeat + 2 x timeout", row.scenario(), row.run())
            .isBetween(0L, DETECT_BOUND_MS);
      }
    }
    // Netty tracks a sample of buffers (about one in 128) and reports one collected unreleased: a
    // path that forgets a release, which a server running for weeks would run out of memory on
    try (Stream<Path> logs = Files.list(plan.logFile("any").getParent())) {
      for (Path log : logs.toList()) {
        assertThat(Files.readString(log))
            .as("Netty leak reports in %s", log.getFileName())
            .doesNotContain("LEAK:");
      }
    }
  }

  static String render() {
    StringBuilder b = new StringBuilder();
    b.append(
        String.format(
            Locale.ROOT,
            "Heartbeat %d ms, timeout %d ms: DePFS detection bound %d ms (for a meta leader that stays "
                + "leader; where the leader itself is cut off, a new one is elected first and the bound counts from its "
                + "election). "
                + "Replacement after %d s down; rebuilds may hold %d %% of the time locks writers wait on. Workload: 2 writers, random 16-512 KiB writes to six %d MiB RS 6+3 files "
                + "(unit 64 KiB), 3 meta + %d data servers on one 2-core machine; rows that say so also run random "
                + "1 B-300 KB writes, shrinking and growing truncates and reads on RS 6+3/4 KiB, 4+2/64 KiB and 2+1/16 KiB "
                + "files, checked against a model (seed %d). Before the first run the workload "
                + "warmed up untimed for %d s (MB/s every 3 s: %s).%n%n",
            HEARTBEAT.toMillis(),
            TIMEOUT.toMillis(),
            DETECT_BOUND_MS,
            REPLACE_AFTER.toSeconds(),
            REBUILD_LOCK_SHARE,
            Workload.FILE_SIZE >> 20,
            plan.dataIds().size(),
            randomIo.seed(),
            3 * warmUp.size(),
            String.join(
                " ", warmUp.stream().map(r -> String.format(Locale.ROOT, "%.0f", r)).toList())));
    b.append(
        "| scenario | run | acked bytes lost | detect (ms) | until full redundancy (ms) | writes before (MB/s) "
            + "| writes while rebuilding (MB/s) | fraction | note |\n|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      double fraction = r.during() / r.before();
      b.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %d | %s | %d | %.1f | %s | %s | %s |%n",
              r.scenario(),
              r.run(),
              r.bytesLost(),
              r.detectMs() < 0 ? "-" : String.valueOf(r.detectMs()),
              r.healMs(),
              r.before() / 1e6,
              Double.isNaN(r.during()) ? "-" : String.format(Locale.ROOT, "%.1f", r.during() / 1e6),
              Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.2f", fraction),
              r.note()));
    }
    b.append(
        String.format(
            Locale.ROOT,
            "%nAcknowledged writes (MB/s) every %d ms, from the baseline's start until "
                + "full redundancy, with each run's events in brackets:%n%n",
            PROFILE_STEP_NANOS / 1_000_000));
    for (Row r : rows) {
      b.append(
          String.format(Locale.ROOT, "- %s, run %d: %s%n", r.scenario(), r.run(), r.profile()));
    }
    return b.toString();
  }

  /** One run of one scenario: baseline, fault, recovery, verification. */
  static final class Run {
    private final Scenario scenario;
    private final int run;
    private final int seq;
    private long faultNanos;
    private long detectNanos = -1;
    private long rebuildStartNanos = -1;

    /**
     * When every file was fully redundant again, if before the cluster was whole again (a server
     * replaced).
     */
    private long redundantNanos = -1;

    private final List<String> notes = new ArrayList<>();

    /** What happened when (System.nanoTime), for the run's profile. */
    private final List<Map.Entry<String, Long>> events = new ArrayList<>();

    /** This run's fault targets, best first (looked up once, before the first fault). */
    private List<String> victims;

    Run(Scenario scenario, int run, int seq) {
      this.scenario = scenario;
      this.run = run;
      this.seq = seq;
    }

    Row execute() throws Exception {
      awaitUntil("full redundancy before '" + scenario.name() + "'", this::healed);
      workload.start(seq);
      if (scenario.randomIo()) {
        randomIo.start();
        notes.add("with random small writes and truncates beside the writers");
      }
      sleep(3000);
      long baselineFrom = System.nanoTime() - 3_000_000_000L;
      faultNanos = System.nanoTime();
      event("fault");
      double before = workload.rate(baselineFrom, faultNanos);
      scenario.action().run(this);
      if (rebuildStartNanos < 0) {
        rebuildStartNanos = System.nanoTime();
      }
      awaitUntil("full redundancy after '" + scenario.name() + "'", this::healed);
      long healed = redundantNanos > 0 ? redundantNanos : System.nanoTime();
      events.add(Map.entry("rebuild window", rebuildStartNanos));
      String profile = profile(baselineFrom, healed);
      double during =
          healed - rebuildStartNanos > 500_000_000L
              ? workload.rate(rebuildStartNanos, healed)
              : Double.NaN;
      if (Double.isNaN(during)) {
        notes.add("rebuild took " + (healed - rebuildStartNanos) / 1_000_000 + " ms");
      } else {
        notes.add(
            "rebuild window "
                + (healed - rebuildStartNanos) / 1_000_000
                + " ms, longest write stall "
                + workload.longestStallMillis(rebuildStartNanos, healed)
                + " ms");
      }
      workload.stopWriters();
      long lost = workload.verify() + randomIo.stopAndCountLost();
      ClusterWatch.awaitHealthy(fs, workload.paths(), HEAL_LIMIT);
      if (scenario.randomIo()) {
        ClusterWatch.awaitHealthy(fs, randomIo.paths(), HEAL_LIMIT);
      }
      return new Row(
          scenario.name(),
          run,
          lost,
          detectNanos < 0 ? -1 : (detectNanos - faultNanos) / 1_000_000,
          (healed - faultNanos) / 1_000_000,
          before,
          during,
          String.join("; ", notes),
          profile);
    }

    void event(String what) {
      events.add(Map.entry(what, System.nanoTime()));
    }

    /**
     * The workload's rate in slices from {@code from} to {@code to}, each event before the slice it
     * happened in.
     */
    private String profile(long from, long to) {
      List<Double> rates = workload.rates(from, to, PROFILE_STEP_NANOS);
      StringBuilder b = new StringBuilder();
      events.sort(Map.Entry.comparingByValue());
      for (int i = 0; i < rates.size(); i++) {
        long sliceStart = from + i * PROFILE_STEP_NANOS;
        for (Map.Entry<String, Long> e : events) {
          if (e.getValue() >= sliceStart && e.getValue() < sliceStart + PROFILE_STEP_NANOS) {
            b.append('[').append(e.getKey()).append("] ");
          }
        }
        b.append(String.format(Locale.ROOT, "%.0f ", rates.get(i) / 1e6));
      }
      return b.toString().trim();
    }

    /**
     * A data server holding units of as many workload files as any other, chosen per run. Where the
     * files are is looked up, not assumed: a server decommissioned or replaced in an earlier
     * scenario comes back holding none of them, and a fault on it would test nothing.
     */
    String victim() {
      return victims().get(0);
    }

    /** Another such server, holding units of as many of the same files as any other. */
    String victim2() {
      return victims().get(1);
    }

    private List<String> victims() {
      if (victims == null) {
        victims = VictimChoice.rank(plan.dataIds(), holders(), seq * 2);
      }
      return victims;
    }

    /** The data servers of each workload file. */
    private List<List<String>> holders() {
      List<List<String>> holders = new ArrayList<>();
      for (String path : workload.paths()) {
        try {
          holders.add(fs.stat(path).layout().servers());
        } catch (Exception e) {
          throw new IllegalStateException("cannot look up where " + path + " is", e);
        }
      }
      return holders;
    }

    void signal(String id, String sig) throws Exception {
      cluster.signal(id, sig);
      event(id + " SIG" + sig);
    }

    void awaitExit(String id) throws Exception {
      cluster.process(id).waitFor(60, TimeUnit.SECONDS);
    }

    void awaitDown(String id) throws Exception {
      awaitUntil(id + " found down", () -> state(id).equals("down"));
      detected();
    }

    /**
     * Kills a data server, lets writes go around it for 3 s, starts it again; returns once it is
     * rebuilding.
     */
    /**
     * SIGKILLs {@code v}, lets it miss writes, starts it again and returns once it rebuilds: the
     * rebuild's foreground window starts there, whatever the scenario does next (a meta leader
     * killed and restarted meanwhile is part of it, not the start of it).
     */
    void killMissWritesAndRestart(String v) throws Exception {
      signal(v, "KILL");
      awaitDown(v);
      sleep(3000);
      restartData(v);
      awaitUntil("rebuild of " + v + " under way", () -> state(v).equals("recovering"));
      rebuildStarts();
    }

    /** SIGKILLs the meta leader; returns its id once another replica leads. */
    String killMetaLeader() throws Exception {
      String leader = leader();
      signal(leader, "KILL");
      awaitUntil("a new meta leader", () -> !leader().isEmpty() && !leader().equals(leader));
      event("new leader " + leader());
      return leader;
    }

    void detected() {
      if (detectNanos < 0) {
        detectNanos = System.nanoTime();
        event("detected");
      }
    }

    void rebuildStarts() {
      rebuildStartNanos = System.nanoTime();
    }

    /** Every file has all its units current again (the cluster may still have a server out). */
    void redundant() {
      redundantNanos = System.nanoTime();
    }

    long millisSinceFault() {
      return (System.nanoTime() - faultNanos) / 1_000_000;
    }

    long placedOn(String id) {
      try {
        return fs.admin().status().dataServers().stream()
            .filter(d -> d.id().equals(id))
            .mapToLong(ClusterStatus.DataServer::filesPlaced)
            .sum();
      } catch (Exception e) {
        return -1;
      }
    }

    void restartData(String id) throws Exception {
      restartData(id, List.of());
    }

    void restartData(String id, List<String> extra) throws Exception {
      if (redundantNanos < 0) {
        rebuildStarts();
      }
      event(id + " restarted");
      cluster.restart(id, extra);
    }

    void restartMeta(String id) throws Exception {
      event(id + " restarted");
      cluster.restart(id);
    }

    void note(String text) {
      notes.add(text);
    }

    void sleep(long ms) throws InterruptedException {
      Thread.sleep(ms);
    }

    String leader() {
      return ClusterWatch.leader(fs);
    }

    String state(String id) {
      return ClusterWatch.state(fs, id);
    }

    long staleOn(String id) {
      try {
        return fs.admin().status().dataServers().stream()
            .filter(d -> d.id().equals(id))
            .mapToLong(ClusterStatus.DataServer::filesToRebuild)
            .sum();
      } catch (Exception e) {
        return 0;
      }
    }

    /** Every process alive, every data server up, nothing stale anywhere. */
    boolean healed() {
      return ClusterWatch.healed(cluster, fs);
    }

    /** What the server logged after {@code from} bytes of its log file. */
    String logSince(String id, long from) {
      try {
        byte[] all = Files.readAllBytes(plan.logFile(id));
        return new String(
            all,
            (int) Math.min(from, all.length),
            (int) Math.max(0, all.length - from),
            StandardCharsets.UTF_8);
      } catch (Exception e) {
        return "";
      }
    }

    void awaitUntil(String what, BooleanSupplier condition) throws Exception {
      awaitUntil(what, condition, HEAL_LIMIT);
    }

    void awaitUntil(String what, BooleanSupplier condition, Duration limit) throws Exception {
      ClusterWatch.await(
          what + " (in '" + scenario.name() + "' run " + run + ")", condition, limit);
    }

    /**
     * Flips a byte in the middle of each of the server's value files (every stored unit is at least
     * 64 KiB, so each is in a file of its own, live ones included); returns what was done.
     */
    String corruptValueFiles(String id) throws Exception {
      Path values = plan.dataDir(id).resolve("shards").resolve("values");
      List<Path> files;
      try (Stream<Path> all = Files.walk(values)) {
        // the files holding units, not the spares kept for reuse
        files =
            all.filter(Files::isRegularFile).filter(f -> !f.getParent().endsWith("spare")).toList();
      }
      assertThat(files).as("value files of %s", id).isNotEmpty();
      for (Path file : files) {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= (byte) 0xFF;
        Files.write(file, bytes);
      }
      return "a byte flipped in each of " + files.size() + " value files";
    }

    /**
     * A separate client process writes a range of a workload file and is SIGKILLed at a fault
     * point; recovery must repair the torn or locked stripes (their lock lease is 3 s).
     */
    void crashWriter(String where) throws Exception {
      String path = workload.paths().get(seq % workload.paths().size());
      List<String> cmd =
          new ArrayList<>(
              List.of(
                  ProcessHandle.current().info().command().orElse("java"),
                  "-cp",
                  System.getProperty("java.class.path"),
                  "-Dtessera.security.credentials=" + plan.adminCredentials(),
                  CrashingWriter.class.getName(),
                  plan.metaAddresses(),
                  path + "-crash",
                  "0",
                  String.valueOf(3 * 6 * Workload.UNIT + 12345),
                  String.valueOf(seq),
                  where));
      // its own file: the workload's model stays exact; it is one more file recovery must leave
      // whole
      if (!fs.exists(path + "-crash")) {
        try (var f =
            fs.createFile(path + "-crash", CreateOptions.erasure(6, 3).stripeUnit(Workload.UNIT))) {
          byte[] before = new byte[4 * 6 * Workload.UNIT];
          new Random(seq).nextBytes(before);
          f.write(0, before, 0, before.length);
        }
      }
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      try (BufferedReader out =
          new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null && !line.contains("PAUSED")) {
          // its log lines
        }
        new ProcessBuilder("kill", "-KILL", String.valueOf(p.pid())).start().waitFor();
        p.waitFor(30, TimeUnit.SECONDS);
      } finally {
        p.destroyForcibly();
      }
      rebuildStarts();
      // a writer of the same stripes waits for recovery to repair and release them, then goes on
      byte[] after = new byte[3 * 6 * Workload.UNIT + 12345];
      new Random(-seq).nextBytes(after);
      try (var f = fs.openFile(path + "-crash")) {
        f.write(0, after, 0, after.length);
        detected();
        byte[] got = new byte[after.length];
        f.readFully(0, got, 0, got.length);
        assertThat(got).as("the stripes a dead writer held, written again").isEqualTo(after);
      }
      FileCheck c = fs.admin().check(path + "-crash", true);
      assertThat(c.verdict()).as(c.toString()).isEqualTo("HEALTHY");
      note("writer killed " + where + "; detect = until its stripes could be written again");
    }
  }
}
