package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.Config;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a power loss, a name a put gave, or a file a program closed, must point at bytes that
 * reached a disk. Each data server counts the writes it acknowledged without an fsync since its
 * last one (what a power loss would take): a put or a close must leave none.
 */
class DurableWritesTest {
  @TempDir static Path dir;
  static InProcessFixture cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessFixture.start(dir, 1, 3);
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static long unsyncedWrites() {
    return cluster.plan.dataIds().stream()
        .mapToLong(id -> cluster.cluster.data(id).unsyncedWrites())
        .sum();
  }

  private static Path localFile(String name) throws Exception {
    byte[] data = new byte[5 << 20];
    new Random(name.hashCode()).nextBytes(data);
    return Files.write(dir.resolve(name), data);
  }

  private static InProcessCli.Result put(String... args) {
    String[] all = new String[args.length + 4];
    all[0] = "fs";
    all[1] = "put";
    all[2] = "--meta";
    all[3] = cluster.plan.metaAddresses();
    System.arraycopy(args, 0, all, 4, args.length);
    return InProcessCli.run(cluster.plan.adminCredentials(), all);
  }

  @Test
  void aPutHasItsBytesOnDiskBeforeItsNameAppears() throws Exception {
    InProcessCli.Result r =
        put("-q", "--ec", "2+1", localFile("put.bin").toString(), "/durable/put.bin");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(unsyncedWrites()).isZero();
  }

  @Test
  void aPutAskedNotToSyncLeavesItsWritesToTheServersPace() throws Exception {
    InProcessCli.Result r =
        put("-q", "--no-sync", "--ec", "2+1", localFile("fast.bin").toString(), "/durable/fast");
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(unsyncedWrites()).isPositive();
  }

  @Test
  void closingAFileItWroteMakesAProgramsWritesDurable() throws Exception {
    try (OutputStream out = cluster.fs.create("/durable/closed.bin", CreateOptions.erasure(2, 1))) {
      out.write(Files.readAllBytes(localFile("closed.bin")));
    }
    assertThat(unsyncedWrites()).isZero();
  }

  @Test
  void aFileOpenedToChangeItIsSyncedWhenTheProgramAsksAsWithPosixFiles() throws Exception {
    try (OutputStream out =
        cluster.fs.create("/durable/changed.bin", CreateOptions.erasure(2, 1))) {
      out.write(new byte[1 << 20]);
    }
    assertThat(unsyncedWrites()).isZero(); // the create's close synced every server
    try (TesseraFile f = cluster.fs.openFile("/durable/changed.bin")) {
      f.write(4096, new byte[64 << 10], 0, 64 << 10);
    }
    assertThat(unsyncedWrites()).isPositive();
    try (TesseraFile f = cluster.fs.openFile("/durable/changed.bin")) {
      f.write(8192, new byte[64 << 10], 0, 64 << 10);
      f.sync();
      assertThat(unsyncedWrites()).isZero();
    }
  }

  @Test
  void withSyncOnCloseOffAClosedFilesWritesSurviveProcessCrashesOnly() throws Exception {
    Map<String, String> conf = new HashMap<>();
    conf.put(ClientConfigKeys.Cluster.META.key(), cluster.plan.metaAddresses());
    conf.put("tessera.security.credentials", cluster.plan.adminCredentials().toString());
    conf.put(ClientConfigKeys.Streams.SYNC_ON_CLOSE.key(), "false");
    try (TesseraFileSystem fs = TesseraFileSystem.connect(Config.of(conf));
        OutputStream out = fs.create("/durable/unsynced.bin", CreateOptions.erasure(2, 1))) {
      out.write(Files.readAllBytes(localFile("unsynced.bin")));
    }
    assertThat(unsyncedWrites()).isPositive();
  }
}
