package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.cli.Tessera;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A busy cluster slows its clients down; it never fails them. Two applications of 16 writers each
 * (32 in all, more than this machine's cores can serve at once) write and read back against 8 data
 * servers: every server stays up in every client's eyes and in the meta group's, every write
 * succeeds, every byte verifies. Before the servers said they were alive while they owed answers, a
 * client whose ping waited behind megabytes of its own queued writes gave a live server up after 5
 * s, and a write that lost three of its six servers that way failed.
 */
class OverloadProcessTest {

  @Test
  void thirtyTwoWritersAgainstEightServersAreSlowedButNeverFailed() throws Exception {
    ClusterPlan plan = new ClusterPlan(TestDirs.fresh("overload"), 3, 8, TestPorts.freeBase(40));
    try (ProcessCluster cluster =
        ProcessCluster.start(plan, ServerLaunchers.defaults(), List.of())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      List<Process> apps = new ArrayList<>();
      for (String app : List.of("a", "b")) {
        apps.add(
            new ProcessBuilder(
                    ClientProcesses.command(
                        plan,
                        Tessera.class,
                        "bench",
                        "ior",
                        "--clients",
                        "16",
                        "--block",
                        "48M",
                        "--transfer",
                        "1M",
                        "--ec",
                        "4+2",
                        "--warmup",
                        "0",
                        "--dir",
                        "/overload-" + app,
                        "--meta",
                        plan.metaAddresses(),
                        "--credentials",
                        plan.adminCredentials().toString()))
                .redirectErrorStream(true)
                .start());
      }
      List<String> outputs = new ArrayList<>();
      for (Process p : apps) {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as(out).isTrue();
        outputs.add(out);
        assertThat(p.exitValue()).as(out).isZero();
      }
      for (String out : outputs) {
        assertThat(out)
            .as("what one application printed")
            .doesNotContain("marked down")
            .contains("verified: every byte of 768 MiB read back as written");
      }
      for (String meta : List.of("m1", "m2", "m3")) {
        assertThat(Files.readString(plan.logFile(meta)))
            .as("the log of meta replica %s", meta)
            .doesNotContain("is down: no heartbeat");
      }
    }
  }
}
