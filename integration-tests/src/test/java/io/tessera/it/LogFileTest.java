package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.FileCheck;
import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Log-structured files (PLFS) against a whole cluster in this JVM: N writers of one file in small
 * interleaved records, each appending to logs of its own, and every reader seeing the file as if it
 * had been written in place.
 */
class LogFileTest {
  private static final int RECORD = StridedRecords.RECORD;

  @TempDir static Path dir;
  static InProcessCluster cluster;
  static TesseraFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    ClusterPlan plan = new ClusterPlan(dir, 3, 4, TestPorts.freeBase(30));
    cluster = InProcessCluster.start(plan, Config.of(Map.of()));
    cluster.awaitReady(Duration.ofSeconds(60));
    fs = TesseraFileSystem.connect(plan.clientConfig());
    fs.mkdir("/ckpt", false, CreateOptions.erasure(2, 1).stripeUnit(64 << 10).log(true));
  }

  @AfterAll
  static void stop() throws Exception {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static byte[] record(int w, int i) {
    return StridedRecords.record(w, i);
  }

  @Test
  void fourStridedWritersOfOneFileReadBackByteForByteAndTheLastCloseFlattens() throws Exception {
    int writers = 4;
    int perWriter = 30;
    List<TesseraFile> handles = new ArrayList<>();
    handles.add(fs.createFile("/ckpt/strided", CreateOptions.defaults()));
    for (int w = 1; w < writers; w++) {
      handles.add(fs.openFile("/ckpt/strided"));
    }
    StridedRecords.write(handles, 0, perWriter).join();
    FileStatus whileOpen = fs.stat("/ckpt/strided");
    assertThat(whileOpen.log()).as("a log file").isNotNull();
    assertThat(whileOpen.size()).as("nothing committed before a sync or close").isZero();
    for (TesseraFile f : handles) {
      f.close();
    }

    FileStatus s = fs.stat("/ckpt/strided");
    assertThat(s.size()).isEqualTo((long) writers * perWriter * RECORD);
    assertThat(s.log().writers()).isEqualTo(writers);
    assertThat(s.log().openWriters()).isZero();
    assertThat(s.log().flattened()).as("flattened on the last close").isTrue();
    assertThat(s.log().indexEntries()).isEqualTo((long) writers * perWriter);
    FileCheck check = fs.admin().check("/ckpt/strided", true);
    assertThat(check.verdict()).isEqualTo("HEALTHY");
    assertThat(check.parts())
        .as("each writer's data and index logs, and the flattened index")
        .hasSize(2 * writers + 1);
    assertThat(check.parityVerified()).isPositive();
    try (TesseraFile f = fs.openFile("/ckpt/strided")) {
      StridedRecords.verify(f, writers, 0, perWriter);
    }
  }

  @Test
  void anotherClientSeesAWriteOnceItsWriterSyncsNotBefore() throws Exception {
    try (TesseraFileSystem other = TesseraFileSystem.connect(cluster.plan().clientConfig());
        TesseraFile writer = fs.createFile("/ckpt/visible", CreateOptions.defaults())) {
      writer.write(0, record(1, 1), 0, RECORD);
      assertThat(writer.size()).as("the writer sees its own write").isEqualTo(RECORD);
      try (TesseraFile reader = other.openFile("/ckpt/visible")) {
        assertThat(reader.size()).as("before the writer's sync").isZero();
        writer.sync();
        assertThat(reader.refresh()).as("after it").isEqualTo(RECORD);
        byte[] got = new byte[RECORD];
        reader.readFully(0, got, 0, RECORD);
        assertThat(got).isEqualTo(record(1, 1));
      }
      byte[] own = new byte[RECORD];
      writer.readFully(0, own, 0, RECORD);
      assertThat(own).isEqualTo(record(1, 1));
    }
  }

  @Test
  void overlappingWritesReadAsTheLaterOneAndHolesAsZeros() throws Exception {
    try (TesseraFile first = fs.createFile("/ckpt/overlap", CreateOptions.defaults())) {
      first.write(0, filled(300_000, 1), 0, 300_000);
      first.sync();
    }
    try (TesseraFile second = fs.openFile("/ckpt/overlap")) {
      second.write(100_000, filled(50_000, 2), 0, 50_000);
      second.write(500_000, filled(10, 3), 0, 10);
    }
    byte[] expect = new byte[500_010];
    Arrays.fill(expect, 0, 300_000, (byte) 1);
    Arrays.fill(expect, 100_000, 150_000, (byte) 2);
    Arrays.fill(expect, 500_000, 500_010, (byte) 3);
    try (InputStream in = fs.open("/ckpt/overlap")) {
      assertThat(in.readAllBytes()).isEqualTo(expect);
    }
  }

  @Test
  void aTruncateCutsWhatWasWrittenBeforeItAndToZeroDropsEveryLog() throws Exception {
    try (TesseraFile f = fs.createFile("/ckpt/cut", CreateOptions.defaults())) {
      f.write(0, filled(200_000, 4), 0, 200_000);
      f.truncate(50_000);
      f.write(100_000, filled(1_000, 5), 0, 1_000);
    }
    byte[] expect = new byte[101_000];
    Arrays.fill(expect, 0, 50_000, (byte) 4);
    Arrays.fill(expect, 100_000, 101_000, (byte) 5);
    try (InputStream in = fs.open("/ckpt/cut")) {
      assertThat(in.readAllBytes())
          .as("zeros between the cut and the later write")
          .isEqualTo(expect);
    }
    try (TesseraFile f = fs.openFile("/ckpt/cut")) {
      f.truncate(0);
    }
    FileStatus s = fs.stat("/ckpt/cut");
    assertThat(s.size()).isZero();
    assertThat(s.log().writers()).as("every writer's logs dropped").isZero();
  }

  @Test
  void aSnapshotTakenMidCheckpointReadsWhatWasSyncedBeforeIt() throws Exception {
    try (TesseraFile f = fs.createFile("/ckpt/snap", CreateOptions.defaults())) {
      f.write(0, record(7, 0), 0, RECORD);
      f.sync();
      fs.admin().snapshots().create("mid-checkpoint");
      f.write(RECORD / 2, record(7, 1), 0, RECORD);
    }
    try (InputStream in = fs.open("/.snapshots/mid-checkpoint/ckpt/snap")) {
      assertThat(in.readAllBytes()).isEqualTo(record(7, 0));
    }
    byte[] live = Arrays.copyOf(record(7, 0), RECORD / 2 + RECORD);
    System.arraycopy(record(7, 1), 0, live, RECORD / 2, RECORD);
    try (InputStream in = fs.open("/ckpt/snap")) {
      assertThat(in.readAllBytes()).isEqualTo(live);
    }
  }

  @Test
  void randomWritesTruncatesReopensAndReadsMatchAnInMemoryModel() throws Exception {
    ModelFile.exercise(
        fs,
        "/ckpt/model",
        CreateOptions.erasure(2, 1).stripeUnit(4096).log(true),
        new Random(62),
        80);
  }

  @Test
  void aStreamWritesALogFileLikeAnyOther() throws Exception {
    byte[] data = new byte[3_000_017];
    new Random(3).nextBytes(data);
    try (OutputStream out = fs.create("/ckpt/streamed", CreateOptions.defaults())) {
      out.write(data);
    }
    try (InputStream in = fs.open("/ckpt/streamed")) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
  }

  @Test
  void theCliMakesLogDirectoriesAndFilesAndShowsAndFlattensThem(@TempDir Path local)
      throws Exception {
    String meta = cluster.plan().metaAddresses();
    assertThat(cli("fs", "mkdir", "--log", "--ec", "2+1", "/cli-logs", "--meta", meta).code())
        .isZero();
    Path big = local.resolve("big.dat");
    byte[] data = new byte[1_000_003];
    new Random(9).nextBytes(data);
    Files.write(big, data);
    InProcessCli.Result put =
        cli("fs", "put", "-q", "--log", big.toString(), "/one.dat", "--meta", meta);
    assertThat(put.code()).as(put.err()).isZero();
    InProcessCli.Result stat = cli("fs", "stat", "/one.dat", "--meta", meta);
    assertThat(stat.out()).contains("Kind: log", "Writers: 1 (0 open)", "Flattened: yes");
    try (TesseraFile f = fs.createFile("/cli-logs/inherits", CreateOptions.defaults())) {
      f.write(0, data, 0, 1000);
      f.sync();
      assertThat(cli("fs", "stat", "/cli-logs/inherits", "--meta", meta).out())
          .as("a file made in a --log directory")
          .contains("Kind: log", "RS 2+1", "Writers: 1 (1 open)", "Flattened: no");
      InProcessCli.Result flatten = cli("fs", "flatten", "/cli-logs/inherits", "--meta", meta);
      assertThat(flatten.code()).as(flatten.err()).isZero();
      assertThat(flatten.out()).contains("1 index entries from 1 writers");
    }
    Path back = local.resolve("back.dat");
    assertThat(cli("fs", "get", "-q", "/one.dat", back.toString(), "--meta", meta).code()).isZero();
    assertThat(Files.readAllBytes(back)).isEqualTo(data);
  }

  private static byte[] filled(int n, int value) {
    byte[] b = new byte[n];
    Arrays.fill(b, (byte) value);
    return b;
  }

  private static InProcessCli.Result cli(String... args) {
    return InProcessCli.run(cluster.plan().adminCredentials(), args);
  }
}
