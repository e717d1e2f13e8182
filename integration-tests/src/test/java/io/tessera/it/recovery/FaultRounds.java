package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.it.InProcessCli;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * One fault after another on one cluster, each checked the same way: writers of modelled bytes
 * ({@link Workload}) and of a namespace history ({@link NamespaceHistory}) run, the fault strikes
 * and holds, the network heals, and once redundancy is full again nothing acknowledged may be lost,
 * no rename half done, and fsck must be clean. Each round appends its row of the fault table.
 */
final class FaultRounds implements AutoCloseable {
  static final Duration LIMIT = Duration.ofSeconds(120);

  /** The least time a fault holds (longer if what runs during it takes longer). */
  static final Duration HOLD = Duration.ofSeconds(12);

  /** What a round does while its fault holds; returns its note. */
  interface During {
    String run(long cutNanos) throws Exception;
  }

  /** A fault struck. */
  interface Step {
    void run() throws Exception;
  }

  /** What a round does after the network healed; returns more of its note. */
  interface After {
    String run() throws Exception;
  }

  private final ClusterPlan plan;
  private final NamespaceNetwork net;
  private final ProcessCluster cluster;
  private final TesseraFileSystem fs;
  private final Workload workload;
  private final NamespaceHistory history;
  private final Path table;
  private int round;

  private FaultRounds(
      ClusterPlan plan,
      NamespaceNetwork net,
      ProcessCluster cluster,
      TesseraFileSystem fs,
      Workload workload,
      NamespaceHistory history,
      Path table) {
    this.plan = plan;
    this.net = net;
    this.cluster = cluster;
    this.fs = fs;
    this.workload = workload;
    this.history = history;
    this.table = table;
  }

  /** Writes the files and directories the rounds work on, and the table's header. */
  static FaultRounds start(
      ClusterPlan plan,
      NamespaceNetwork net,
      ProcessCluster cluster,
      TesseraFileSystem fs,
      Path table)
      throws Exception {
    Workload workload =
        new Workload(
            fs, "/faults/data", 6, 17, CreateOptions.erasure(4, 2).stripeUnit(Workload.UNIT));
    NamespaceHistory history = new NamespaceHistory(fs, "/faults/names", 2);
    Files.writeString(
        table,
        "| scenario | acknowledged bytes lost | operations acknowledged / uncertain / lost | fault"
            + " held (ms) | full redundancy after the heal (ms) | notes |\n"
            + "|---|---|---|---|---|---|\n");
    return new FaultRounds(plan, net, cluster, fs, workload, history, table);
  }

  Workload workload() {
    return workload;
  }

  void run(String name, Step fault, During during) throws Exception {
    run(name, fault, during, () -> "");
  }

  /**
   * Runs the writers, strikes, lets the fault hold {@link #HOLD} (or as long as {@code during}
   * takes), heals, then checks the history: nothing acknowledged lost, fsck clean.
   */
  void run(String name, Step fault, During during, After afterHeal) throws Exception {
    round++;
    int acknowledgedBefore = history.acknowledged();
    int uncertainBefore = history.uncertain();
    workload.start(round);
    history.start(round);
    long cut;
    long healAt;
    long healed;
    String note;
    try {
      Thread.sleep(2000);
      cut = System.nanoTime();
      fault.run();
      try {
        note = during.run(cut);
        long left = HOLD.toNanos() - (System.nanoTime() - cut);
        if (left > 0) {
          Thread.sleep(left / 1_000_000);
        }
      } finally {
        net.heal();
      }
      healAt = System.nanoTime();
      note += afterHeal.run();
      ClusterWatch.await("full redundancy after the heal", this::healed, LIMIT);
      healed = System.nanoTime();
    } finally {
      workload.stopWriters();
      history.stop();
    }
    long lostBytes = workload.verify();
    List<String> violations = history.check(fs);
    ClusterWatch.awaitHealthy(fs, workload.paths(), LIMIT);
    InProcessCli.Result fsck =
        InProcessCli.run(plan.adminCredentials(), "fsck", "/", "--meta", plan.metaAddresses());
    String row =
        String.format(
            Locale.ROOT,
            "| %s | %d | %d / %d / %d | %d | %d | %s |%n",
            name,
            lostBytes,
            history.acknowledged() - acknowledgedBefore,
            history.uncertain() - uncertainBefore,
            violations.size(),
            (healAt - cut) / 1_000_000,
            (healed - healAt) / 1_000_000,
            String.format(
                Locale.ROOT,
                "writes %.1f MB/s before, %.1f MB/s while the fault held; %s",
                workload.rate(cut - 2_000_000_000L, cut) / 1e6,
                workload.rate(cut, healAt) / 1e6,
                note));
    System.out.print(row);
    Files.writeString(table, row, StandardOpenOption.APPEND);
    assertThat(lostBytes).as("acknowledged bytes lost: " + name).isZero();
    assertThat(violations).as("the namespace history: " + name).isEmpty();
    assertThat(fsck.code()).as("fsck after " + name + ": " + fsck.out() + fsck.err()).isZero();
  }

  /** Healed, and every replica back in touch with the leader. */
  private boolean healed() {
    try {
      return ClusterWatch.healed(cluster, fs)
          && fs.admin().status().replicas().stream()
              .allMatch(
                  r ->
                      r.leader()
                          || (r.lastContactMillisAgo() >= 0 && r.lastContactMillisAgo() < 3000));
    } catch (Exception e) {
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    workload.close();
    history.close();
  }
}
