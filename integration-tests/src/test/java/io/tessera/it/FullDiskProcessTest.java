package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Disks fill up for real: the meta replica and one data server keep their state on small
 * filesystems of their own (a tmpfs in a mount namespace of each process), which the test fills to
 * past the servers' floors. Writers get a clear NO_SPACE naming the full server and the setting,
 * nothing crashes, reads go on, and writes resume once space is freed. Before, the meta replica had
 * no floor at all (a full Raft log stops a replica).
 */
class FullDiskProcessTest {
  private static final long MB = 1 << 20;
  private static final String TMPFS_SIZE = "192m";

  @Test
  void fullDisksRefuseNewDataClearlyServeReadsAndRecoverWhenFreed() throws Exception {
    assumeTrue(smallDisksAvailable(), "mount namespaces with a tmpfs need root and unshare(1)");
    ClusterPlan plan = new ClusterPlan(TestDirs.fresh("full-disk"), 1, 3, TestPorts.freeBase(20));
    try (ProcessCluster cluster = startWithSmallDisks(plan, Set.of("m1", "ds-1"));
        TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      byte[] kept = new byte[3 * (int) MB];
      new Random(4).nextBytes(kept);
      try (TesseraFile f = fs.createFile("/kept", CreateOptions.erasure(2, 1).stripeUnit(65536))) {
        f.write(0, kept, 0, kept.length);
      }

      // the meta replica's disk: changes that add are refused, removes and reads go on
      Path metaFiller = fill(cluster, "m1", plan.metaDir("m1"));
      awaitRefusedForSpace(() -> fs.mkdirs("/new-dir"), "meta replica m1");
      assertThat(read(fs, "/kept", 0, kept.length))
          .as("reads while the meta disk is full")
          .isEqualTo(kept);
      Files.delete(metaFiller);
      await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptions()
          .untilAsserted(() -> fs.mkdirs("/new-dir"));

      // a data server's disk: a write to a file striped over it is refused, the file still reads
      Path dataFiller = fill(cluster, "ds-1", plan.dataDir("ds-1"));
      byte[] more = new byte[(int) MB];
      new Random(5).nextBytes(more);
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThatThrownBy(() -> write(fs, "/kept", kept.length, more))
                      .hasMessageContaining("data server ds-1 is out of space")
                      .hasMessageContaining("tessera.data.min-free-space"));
      assertThat(read(fs, "/kept", 0, kept.length)).isEqualTo(kept);
      Files.delete(dataFiller);
      await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptions()
          .untilAsserted(() -> write(fs, "/kept", kept.length, more));
      assertThat(read(fs, "/kept", kept.length, more.length)).isEqualTo(more);
      assertThat(read(fs, "/kept", 0, kept.length)).isEqualTo(kept);

      cluster.checkAlive();
      assertThat(fs.admin().check("/kept", true).healthy())
          .as("fsck after the full disks")
          .isTrue();
    }
  }

  @Test
  void aFollowersFullDiskHoldsChangesBackUntilFreedAndTheFollowerStaysInTheGroup()
      throws Exception {
    assumeTrue(smallDisksAvailable(), "mount namespaces with a tmpfs need root and unshare(1)");
    ClusterPlan plan =
        new ClusterPlan(TestDirs.fresh("full-follower"), 3, 3, TestPorts.freeBase(20));
    try (ProcessCluster cluster = startWithSmallDisks(plan, Set.of("m2", "m3"));
        TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
      cluster.awaitReady(Duration.ofSeconds(120));
      fs.mkdirs("/before");
      String leader = fs.admin().status().leaderId();
      // the leader's own disk has room: only a follower's is filled
      String follower = leader.equals("m2") ? "m3" : "m2";
      Path filler = fill(cluster, follower, plan.metaDir(follower));
      awaitRefusedForSpace(() -> fs.mkdirs("/while-full"), "meta replica " + follower);
      assertThat(fs.list("/"))
          .as("reads while a follower's disk is full")
          .extracting(FileStatus::name)
          .contains("before");
      Files.delete(filler);
      await()
          .atMost(Duration.ofSeconds(10))
          .ignoreExceptions()
          .untilAsserted(() -> fs.mkdirs("/after"));
      cluster.checkAlive();
      await("the follower back in touch with the leader")
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fs.admin().status().replicas().stream()
                      .filter(r -> r.id().equals(follower))
                      .allMatch(
                          r -> r.lastContactMillisAgo() >= 0 && r.lastContactMillisAgo() < 5000));
    }
  }

  /** A cluster whose servers {@code small} keep their state on small disks of their own. */
  private static ProcessCluster startWithSmallDisks(ClusterPlan plan, Set<String> small)
      throws Exception {
    return ProcessCluster.start(
        plan,
        ServerLaunchers.defaults(),
        // the small disks still take new files (the default floor for placement is 1 GiB)
        List.of("-Dtessera.meta.placement-min-free=32m"),
        id ->
            !small.contains(id)
                ? List.of()
                : onSmallDisk(id.startsWith("m") ? plan.metaDir(id) : plan.dataDir(id)));
  }

  /** Waits for a namespace change to be refused NO_SPACE for {@code who}'s full disk. */
  private static void awaitRefusedForSpace(ThrowingCallable change, String who) {
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThatThrownBy(change)
                    .isInstanceOf(TesseraException.class)
                    .hasMessageContaining(who + " is out of space")
                    .hasMessageContaining("tessera.meta.min-free-space")
                    .satisfies(
                        e ->
                            assertThat(((TesseraException) e).status())
                                .isEqualTo(StatusProto.NO_SPACE)));
  }

  /**
   * Runs the server in a mount namespace of its own with {@code dir} on a tmpfs of {@link
   * #TMPFS_SIZE} (the process keeps its id: sh execs the server).
   */
  private static List<String> onSmallDisk(Path dir) {
    return List.of(
        "unshare",
        "--mount",
        "--propagation",
        "private",
        "sh",
        "-c",
        "mkdir -p \"$0\" && mount -t tmpfs -o size=" + TMPFS_SIZE + " tmpfs \"$0\" && exec \"$@\"",
        dir.toString());
  }

  /** Whether this machine lets the test give a process a tmpfs of its own. */
  private static boolean smallDisksAvailable() {
    try {
      Path probe = Files.createTempDirectory("tessera-tmpfs-probe");
      try {
        List<String> cmd = new ArrayList<>(onSmallDisk(probe));
        cmd.add("true");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        return p.waitFor() == 0;
      } finally {
        Files.deleteIfExists(probe);
      }
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Fills the server's small disk (seen through its process's root) until less than 8 MiB is free:
   * below every server's floor.
   */
  private static Path fill(ProcessCluster cluster, String id, Path dir) throws IOException {
    Path seen =
        Path.of("/proc", String.valueOf(cluster.process(id).pid()), "root")
            .resolve(dir.toString().substring(1));
    Path filler = seen.resolve("filler");
    long free = Files.getFileStore(seen).getUsableSpace();
    try (RandomAccessFile f = new RandomAccessFile(filler.toFile(), "rw")) {
      byte[] chunk = new byte[(int) MB];
      for (long left = free - 8 * MB; left > 0; left -= chunk.length) {
        f.write(chunk); // tmpfs allocates what is written, not what is merely sized
      }
    }
    return filler;
  }

  /** Writes {@code data} at {@code at} of an existing file (striped over all three servers). */
  private static void write(TesseraFileSystem fs, String path, long at, byte[] data)
      throws IOException {
    try (TesseraFile f = fs.openFile(path)) {
      f.write(at, data, 0, data.length);
    }
  }

  private static byte[] read(TesseraFileSystem fs, String path, long at, int length)
      throws IOException {
    byte[] got = new byte[length];
    try (TesseraFile f = fs.openFile(path)) {
      f.readFully(at, got, 0, length);
    }
    return got;
  }
}
