package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.it.ClientProcesses;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The faults only a network brings, Jepsen style, on one cluster of hosts of their own (every
 * server in a network namespace, as {@link MultiHostProcessTest}): the meta leader cut off from the
 * other replicas, a data server cut off from the meta group, a client cut off in the middle of a
 * two-phase write, a data server's link dropping 30 % of its packets, two servers' clocks 30 s off,
 * and the meta leader cut off together with a data server from everything else. Each is one of
 * {@link FaultRounds}: writers of modelled bytes and of a namespace history run while it holds;
 * after the heal and full redundancy nothing acknowledged may be lost, no rename half done, fsck
 * clean; its row of the fault table goes to {@code target/network-faults.md}. Skipped where
 * namespaces cannot be made (not root); CI runs as root.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NetworkFaultsProcessTest {
  static final Duration LIMIT = Duration.ofSeconds(120);
  static final String CLIENT_HOST = "cl-1";
  static final String LIBFAKETIME = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

  private ClusterPlan plan;
  private NamespaceNetwork net;
  private ProcessCluster cluster;
  private TesseraFileSystem fs;
  private FaultRounds rounds;

  @BeforeAll
  void startCluster() throws Exception {
    assumeTrue(NamespaceNetwork.available(), "network namespaces need root and iproute2");
    ClusterPlan probe =
        new ClusterPlan(TestDirs.fresh("network-faults"), 3, 6, TestPorts.freeBase(60));
    List<String> servers = new ArrayList<>(probe.metaPeers().stream().map(p -> p.id()).toList());
    servers.addAll(probe.dataIds());
    List<String> hosts = new ArrayList<>(servers);
    hosts.add(CLIENT_HOST);
    net = new NamespaceNetwork(hosts);
    Map<String, String> serverHosts = new LinkedHashMap<>(net.hosts());
    serverHosts.remove(CLIENT_HOST);
    plan = new ClusterPlan(probe.dir(), 3, 6, probe.portBase(), serverHosts);
    cluster =
        ProcessCluster.start(
            plan,
            ServerLaunchers.defaults(),
            List.of(
                "-Dtessera.meta.data-server-timeout=2s",
                "-Dtessera.data.heartbeat-interval=500ms",
                "-Dtessera.meta.heartbeat-interval=500ms",
                // shorter than the 30 s a skewed clock is off: every token would be refused on
                // arrival if data servers judged them by their own clocks
                "-Dtessera.meta.access-token-lifetime=20s"),
            net::wrapper);
    fs =
        TesseraFileSystem.connect(
            plan.clientConfig()
                .with(ClientConfigKeys.Failures.DOWN_SERVER_RETRY_AFTER, "1s")
                .with(ClientConfigKeys.Failures.LOCK_LEASE, "5s"));
    cluster.awaitReady(LIMIT);
    rounds = FaultRounds.start(plan, net, cluster, fs, Path.of("target", "network-faults.md"));
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (rounds != null) {
      rounds.close();
    }
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
    if (net != null) {
      net.close();
    }
  }

  @Test
  @Order(1)
  void theLeaderCutOffFromItsReplicasStopsActingAsLeaderAndLosesNothing() throws Exception {
    String oldLeader = ClusterWatch.leader(fs);
    Set<String> others = metaIds();
    others.remove(oldLeader);
    try (TesseraFileSystem pinned =
            TesseraFileSystem.connect(
                plan.clientConfig()
                    .with(ClientConfigKeys.Cluster.META, addresses(Set.of(oldLeader)))
                    .with(ClientConfigKeys.Cluster.META_RETRY_FOR, "5s"));
        TesseraFileSystem majority = connectTo(others)) {
      rounds.run(
          "meta leader " + oldLeader + " cut off from the other replicas, clients still reach it",
          () -> net.cut(Set.of(oldLeader), others),
          cut -> {
            awaitNewLeader(majority, others);
            long elected = System.nanoTime();
            await(
                oldLeader + " no longer acting as leader",
                () -> !ClusterWatch.leader(pinned).equals(oldLeader));
            long steppedDown = System.nanoTime();
            // a change acknowledged by the new leader, then read through the old one
            majority.createFile("/faults/after-cut", CreateOptions.defaults()).close();
            String staleRead = "";
            try {
              if (!pinned.exists("/faults/after-cut")) {
                staleRead =
                    "; STALE: the old leader said a change acknowledged before was not there";
              }
            } catch (Exception refused) {
              staleRead = "; the old leader refused a read: " + refused.getMessage();
            }
            assertThat(staleRead).as("a read through the cut-off leader").doesNotContain("STALE");
            return String.format(
                Locale.ROOT,
                "new leader after %d ms; %s stopped acting as leader after %d ms%s",
                (elected - cut) / 1_000_000,
                oldLeader,
                (steppedDown - cut) / 1_000_000,
                staleRead);
          });
    }
  }

  @Test
  @Order(2)
  void aDataServerCutOffFromTheMetaGroupButNotFromClientsLosesNothing() throws Exception {
    String island = "ds-2";
    rounds.run(
        island + " cut off from the meta group, clients still reach it",
        () -> net.cut(Set.of(island), metaIds()),
        cut -> {
          await(island + " found down", () -> ClusterWatch.state(fs, island).equals("down"));
          return island + " found down after " + (System.nanoTime() - cut) / 1_000_000 + " ms";
        });
  }

  @Test
  @Order(3)
  void aClientCutOffInTheMiddleOfATwoPhaseWriteLeavesNoOrphanLockAndRightParity() throws Exception {
    String path = "/faults/two-phase.bin";
    int length = 3 * 4 * Workload.UNIT + 12345;
    byte[] before = random(4 * 4 * Workload.UNIT, 1);
    try (TesseraFile f =
        fs.createFile(path, CreateOptions.erasure(4, 2).stripeUnit(Workload.UNIT))) {
      f.write(0, before, 0, before.length);
    }
    List<String> cmd = new ArrayList<>(net.wrapper(CLIENT_HOST));
    cmd.addAll(
        ClientProcesses.command(
            plan,
            CrashingWriter.class,
            plan.metaAddresses(),
            path,
            "0",
            String.valueOf(length),
            "2",
            "mid-phase-2",
            "resume"));
    Process writer = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try (BufferedReader out =
            new BufferedReader(
                new InputStreamReader(writer.getInputStream(), StandardCharsets.UTF_8));
        Writer in = new OutputStreamWriter(writer.getOutputStream(), StandardCharsets.UTF_8)) {
      String line;
      while ((line = out.readLine()) != null && !line.contains("PAUSED")) {
        // its log lines
      }
      assertThat(line).as("the writer reached the middle of phase 2").isNotNull();
      // its output read as it comes, so that its logging never blocks it
      List<String> said = Collections.synchronizedList(new ArrayList<>());
      Thread reader =
          new Thread(
              () -> {
                try {
                  for (String l; (l = out.readLine()) != null; ) {
                    said.add(l);
                  }
                } catch (IOException closed) {
                  // the writer ended
                }
              },
              "cut-off-writer-output");
      reader.setDaemon(true);
      reader.start();
      byte[] after = random(length, 3);
      String[] outcome = {""};
      rounds.run(
          "a client cut off half-way through phase 2 of a write",
          () -> net.cut(Set.of(CLIENT_HOST), allServers()),
          cut -> {
            // another client writes the same stripes: it waits for the orphan locks' repair
            try (TesseraFile f = fs.openFile(path)) {
              f.write(0, after, 0, after.length);
            }
            return "the same stripes written by another client "
                + (System.nanoTime() - cut) / 1_000_000
                + " ms after the cut";
          },
          () -> {
            in.write("go\n");
            in.flush();
            if (!writer.waitFor(90, TimeUnit.SECONDS)) {
              throw new AssertionError(
                  "the cut-off writer, let go after the heal, did not end within 90 s; it said: "
                      + String.join("\n", said)
                      + "\n"
                      + threads(writer));
            }
            reader.join(10_000);
            String last =
                said.stream()
                    .filter(l -> l.startsWith("WRITTEN") || l.startsWith("FAILED"))
                    .reduce("(no word)", (a, b) -> b);
            outcome[0] = last;
            byte[] got = new byte[before.length];
            try (TesseraFile f = fs.openFile(path)) {
              f.readFully(0, got, 0, got.length);
            }
            // its write went on after the other's was acknowledged: all of it, or none of it
            byte[] want = before.clone();
            byte[] winner = last.startsWith("WRITTEN") ? random(length, 2) : after;
            System.arraycopy(winner, 0, want, 0, length);
            assertThat(got)
                .as("the stripes after the cut-off writer said: " + last)
                .isEqualTo(want);
            return "; the cut-off writer, let go after the heal: " + last;
          });
    } finally {
      writer.destroyForcibly();
    }
  }

  @Test
  @Order(4)
  void aDataServerOnALinkThatDropsAThirdOfItsPacketsLosesNothing() throws Exception {
    String flaky = "ds-3";
    rounds.run(
        flaky + "'s link drops 30 % of packets each way",
        () -> net.lossy(flaky, 30),
        cut -> "state of " + flaky + " at the end: " + ClusterWatch.state(fs, flaky));
  }

  @Test
  @Order(5)
  void serversRestartedWithClocksThirtySecondsOffChangeNothing() throws Exception {
    assumeTrue(Files.exists(Path.of(LIBFAKETIME)), "clock skew needs libfaketime (faketime)");
    String behind = "m3";
    String ahead = "ds-6";
    rounds.run(
        behind + " restarted with its clock 30 s behind, " + ahead + " 30 s ahead",
        () -> restartAll(Map.of(behind, skewed("-30s"), ahead, skewed("+30s"))),
        cut -> {
          await(ahead + " up again", () -> ClusterWatch.state(fs, ahead).equals("up"));
          rounds.workload().clearErrors();
          long from = System.nanoTime();
          // longer than a token's whole life (20 s): writers renew tokens meanwhile
          Thread.sleep(25_000);
          assertThat(rounds.workload().errors())
              .as("writes refused while clocks were off")
              .isEmpty();
          return "writes went on without an error for "
              + (System.nanoTime() - from) / 1_000_000
              + " ms with the clocks off";
        },
        () -> {
          restartAll(Map.of(behind, Map.of(), ahead, Map.of()));
          return "";
        });
  }

  /**
   * libfaketime moving the process's clocks by {@code offset}: the monotonic one too (a constant
   * offset changes no interval; leaving it real makes every JVM clock read several times slower).
   */
  private static Map<String, String> skewed(String offset) {
    return Map.of("LD_PRELOAD", LIBFAKETIME, "FAKETIME", offset);
  }

  /** The last {@code lines} lines of a server's log, for a failure's message. */
  private static String logTail(Path log, int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** A process's threads (jstack), for a failure's message. */
  private static String threads(Process p) {
    try {
      Process j =
          new ProcessBuilder("jstack", String.valueOf(p.pid())).redirectErrorStream(true).start();
      String out = new String(j.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      j.waitFor(30, TimeUnit.SECONDS);
      return out.length() > 20_000 ? out.substring(0, 20_000) : out;
    } catch (Exception e) {
      return "(no thread dump: " + e.getMessage() + ")";
    }
  }

  /** Stops the servers (SIGTERM) and starts each again with the environment given for it. */
  private void restartAll(Map<String, Map<String, String>> environments) throws Exception {
    for (String id : environments.keySet()) {
      cluster.signal(id, "TERM");
    }
    for (String id : environments.keySet()) {
      assertThat(cluster.process(id).waitFor(60, TimeUnit.SECONDS)).as(id + " stopped").isTrue();
    }
    List<CompletableFuture<Void>> started = new ArrayList<>();
    for (var e : environments.entrySet()) {
      started.add(
          CompletableFuture.runAsync(
              () -> {
                try {
                  cluster.restart(e.getKey(), List.of(), e.getValue());
                } catch (Exception ex) {
                  throw new CompletionException(ex);
                }
              }));
    }
    for (var f : started) {
      f.get(120, TimeUnit.SECONDS);
    }
  }

  @Test
  @Order(6)
  void theLeaderAndADataServerCutOffFromEverythingLoseNothing() throws Exception {
    String oldLeader = ClusterWatch.leader(fs);
    String island = "ds-1";
    Set<String> others = metaIds();
    others.remove(oldLeader);
    rounds.run(
        "meta leader "
            + oldLeader
            + " and "
            + island
            + " cut off from everything else, this client included",
        () -> net.partition(Set.of(oldLeader, island)),
        cut -> {
          // a client that knows only the majority side, as one started during the partition
          try (TesseraFileSystem majority = connectTo(others)) {
            awaitNewLeader(majority, others);
            long elected = System.nanoTime();
            await(
                island + " found down", () -> ClusterWatch.state(majority, island).equals("down"));
            return String.format(
                Locale.ROOT,
                "new leader after %d ms, %s found down after %d ms",
                (elected - cut) / 1_000_000,
                island,
                (System.nanoTime() - cut) / 1_000_000);
          }
        });
  }

  /**
   * Waits until {@code fs} sees one of {@code candidates} lead. On failure the message carries the
   * candidates' last log lines and threads: a replica elected but never ready waits somewhere.
   */
  private void awaitNewLeader(TesseraFileSystem fs, Set<String> candidates) throws Exception {
    String[] seen = {""};
    try {
      await(
          "a new leader among " + candidates, () -> candidates.contains(seen[0] = leaderOrWhy(fs)));
    } catch (AssertionError e) {
      StringBuilder dumps = new StringBuilder();
      for (String id : candidates) {
        dumps.append("\n--- last log lines of ").append(id).append(" ---\n");
        dumps.append(logTail(plan.logFile(id), 40));
        dumps.append("\n--- threads of ").append(id).append(" ---\n");
        dumps.append(threads(cluster.process(id)));
      }
      throw new AssertionError(e.getMessage() + "; last seen: " + seen[0] + dumps);
    }
  }

  /** The leader's id as {@code fs} sees it, or why it cannot tell. */
  private static String leaderOrWhy(TesseraFileSystem fs) {
    try {
      return fs.admin().status().replicas().stream()
          .filter(r -> r.leader())
          .map(r -> r.id())
          .findFirst()
          .orElse("none");
    } catch (Exception e) {
      return e.getMessage();
    }
  }

  private TesseraFileSystem connectTo(Set<String> replicas) throws Exception {
    return TesseraFileSystem.connect(
        plan.clientConfig().with(ClientConfigKeys.Cluster.META, addresses(replicas)));
  }

  private String addresses(Set<String> replicas) {
    return plan.metaPeers().stream()
        .filter(p -> replicas.contains(p.id()))
        .map(p -> p.clientAddress())
        .collect(Collectors.joining(","));
  }

  private Set<String> metaIds() {
    return plan.metaPeers().stream()
        .map(p -> p.id())
        .collect(Collectors.toCollection(HashSet::new));
  }

  private Set<String> allServers() {
    Set<String> all = metaIds();
    all.addAll(plan.dataIds());
    return all;
  }

  private static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void await(String what, BooleanSupplier condition) throws Exception {
    ClusterWatch.await(what, condition, LIMIT);
  }
}
