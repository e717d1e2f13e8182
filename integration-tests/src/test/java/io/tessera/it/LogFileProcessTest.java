package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Log files when processes die, one OS process per server, killed with real signals: a checkpoint
 * writer killed mid-checkpoint loses only what it had not synced, and a data server killed while
 * eight writers checkpoint into one file loses nothing their syncs and closes acknowledged.
 */
class LogFileProcessTest {
  private static final int RECORD = StridedRecords.RECORD;

  static ClusterPlan plan;
  static ProcessCluster cluster;
  static TesseraFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    Path dir = TestDirs.fresh("log-files");
    plan = new ClusterPlan(dir, 1, 6, TestPorts.freeBase(30));
    cluster = ProcessCluster.start(plan, ServerLaunchers.defaults(), List.of());
    cluster.awaitReady(Duration.ofSeconds(120));
    fs = TesseraFileSystem.connect(plan.clientConfig());
    fs.mkdir("/ckpt", false, CreateOptions.erasure(4, 2).stripeUnit(64 << 10).log(true));
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

  @Test
  void aWriterKilledMidCheckpointLosesOnlyWhatItHadNotSynced() throws Exception {
    fs.createFile("/ckpt/killed", CreateOptions.defaults()).close();
    List<String> cmd =
        ClientProcesses.command(
            plan, LogCheckpointWriter.class, plan.metaAddresses(), "/ckpt/killed", "30", "50");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = out.readLine()) != null && !line.contains("WRITTEN")) {
        // its log lines
      }
      assertThat(line).as("the writer wrote past its sync").isNotNull();
      new ProcessBuilder("kill", "-KILL", String.valueOf(p.pid())).start().waitFor();
      assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      p.destroyForcibly();
    }

    FileStatus s = fs.stat("/ckpt/killed");
    assertThat(s.size()).as("the synced records, not one byte more").isEqualTo(30L * RECORD);
    assertThat(s.log().openWriters()).as("the dead writer never closed").isEqualTo(1);
    try (TesseraFile f = fs.openFile("/ckpt/killed")) {
      byte[] got = new byte[RECORD];
      for (int i = 0; i < 30; i++) {
        f.readFully((long) i * RECORD, got, 0, RECORD);
        assertThat(got).as("synced record %d", i).isEqualTo(StridedRecords.record(0, i));
      }
    }
    assertThat(fs.flatten("/ckpt/killed").log().flattened()).isTrue();
  }

  @Test
  void aDataServerKilledDuringAnEightWriterCheckpointLosesNothingAcknowledged() throws Exception {
    int writers = 8;
    int perWriter = 40;
    List<TesseraFile> handles = new ArrayList<>();
    handles.add(fs.createFile("/ckpt/degraded", CreateOptions.defaults()));
    for (int w = 1; w < writers; w++) {
      handles.add(fs.openFile("/ckpt/degraded"));
    }
    StridedRecords.write(handles, 0, perWriter / 2).join();
    for (TesseraFile f : handles) {
      f.sync();
    }
    cluster.signal(plan.dataIds().get(2), "KILL");
    StridedRecords.write(handles, perWriter / 2, perWriter).join();
    for (TesseraFile f : handles) {
      f.close();
    }

    try (TesseraFile f = fs.openFile("/ckpt/degraded")) {
      assertThat(f.size()).isEqualTo((long) writers * perWriter * RECORD);
      StridedRecords.verify(f, writers, 0, perWriter);
    }
    cluster.restart(plan.dataIds().get(2));
  }
}
