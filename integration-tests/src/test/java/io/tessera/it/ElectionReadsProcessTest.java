package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The meta leader dies (SIGKILL) and its followers need one to two seconds to elect another. A
 * client opening, stat-ing and listing files should not stall that long: another replica answers
 * from its own state, but only once it has applied everything that client has seen, so a file the
 * client just created is never reported missing.
 */
class ElectionReadsProcessTest {
  private static final int FILES = 20;

  /** Long enough that an answer before it cannot have come from a new leader. */
  private static final Duration ELECTION_MIN = Duration.ofSeconds(3);

  @Test
  void lookupsAndListingsGoOnWhileANewLeaderIsElectedAndNeverHideTheClientsOwnFiles()
      throws Exception {
    Path dir = TestDirs.fresh("election-reads");
    ClusterPlan plan = new ClusterPlan(dir, 3, 1, TestPorts.freeBase(10));
    try (ProcessCluster cluster =
            ProcessCluster.start(
                plan,
                ServerLaunchers.defaults(),
                List.of(
                    "-Dtessera.meta.election-timeout-min=" + ELECTION_MIN.toMillis() + "ms",
                    "-Dtessera.meta.election-timeout-max="
                        + ELECTION_MIN.multipliedBy(2).toMillis()
                        + "ms"));
        TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig());
        TesseraFileSystem other = TesseraFileSystem.connect(plan.clientConfig())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      fs.mkdirs("/elect");
      for (int i = 0; i < FILES; i++) {
        fs.createFile("/elect/f" + i, CreateOptions.defaults()).close();
      }
      // another client's later change: its log entry tells the followers that ours are committed
      other.createFile("/elect/marker", CreateOptions.defaults()).close();

      String leader = leader(other);
      long killed = System.nanoTime();
      cluster.signal(leader, "KILL");
      FileStatus st = fs.stat("/elect/f7");
      List<FileStatus> listed = fs.list("/elect");
      long answeredMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
      assertThat(st.directory()).isFalse();
      // every file this client made; the other client's marker may show only after the election
      assertThat(listed)
          .extracting(FileStatus::path)
          .containsAll(IntStream.range(0, FILES).mapToObj(i -> "/elect/f" + i).toList());
      assertThat(answeredMs)
          .as(
              "ms until stat and list were answered; no new leader can be elected before the "
                  + "followers' election timeout, %d ms after they last heard from the dead one",
              ELECTION_MIN.toMillis())
          .isLessThan(ELECTION_MIN.toMillis() * 2 / 3);

      // a file created just before the leader dies is never reported missing to its creator
      cluster.restart(leader);
      cluster.awaitReady(Duration.ofSeconds(120));
      String next = leader(fs);
      fs.createFile("/elect/just-made", CreateOptions.defaults()).close();
      cluster.signal(next, "KILL");
      assertThat(fs.stat("/elect/just-made").directory()).isFalse();
      assertThat(fs.list("/elect")).extracting(FileStatus::path).contains("/elect/just-made");
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
}
