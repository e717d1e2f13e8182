package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.FileCheck;
import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One OS process per server; data servers die by SIGKILL. For RS 4+2 and 6+3, every way of losing
 * up to m of a file's servers: the file written while healthy reads back identical, overwritten
 * while they are down it reads back identical then and after they return (their shards of it are
 * stale, and readers decode around them), fsck never calls it DAMAGED, and recovery rebuilds the
 * returned servers' shards until fsck calls it HEALTHY with every parity unit verified.
 *
 * <p>Which servers die is named by position in the file's server list. Unit j of stripe s lives at
 * position (j + s) mod n, so a file of at least n stripes meets every rotation of a set of
 * positions in some stripe: one set per rotation class covers every combination of failed units,
 * and the classes keep the number of kill-and-restart rounds small (23 instead of 152). {@code
 * -Dtessera.it.exhaustive=true} runs every combination of servers instead.
 */
class DegradedIoProcessTest {
  private static final int UNIT = 16 << 10;
  static ProcessCluster cluster;
  static ClusterPlan plan;

  @BeforeAll
  static void start() throws Exception {
    Path dir = TestDirs.fresh("degraded-io");
    plan = new ClusterPlan(dir, 1, 9, TestPorts.freeBase(40));
    cluster = ProcessCluster.start(plan, ServerLaunchers.defaults(), List.of());
    cluster.awaitReady(Duration.ofSeconds(120));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @ParameterizedTest(name = "RS {0}+{1}")
  @CsvSource({"4,2", "6,3"})
  void everyCombinationOfUpToMKilledServersLeavesEveryFileReadable(int k, int m) throws Exception {
    int n = k + m;
    List<int[]> combos = killSets(n, m, Boolean.getBoolean("tessera.it.exhaustive"));
    long stripeBytes = (long) k * UNIT;
    int size = (int) (2 * n * stripeBytes + 12345); // every rotation, and a partial last stripe
    String dirName = "/degraded-" + k + "-" + m;
    List<List<String>> servers = new ArrayList<>();
    try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
      fs.mkdirs(dirName);
      for (int c = 0; c < combos.size(); c++) {
        // written while every server is up, then read and overwritten while some are down
        try (TesseraFile f =
            fs.createFile(dirName + "/f" + c, CreateOptions.erasure(k, m).stripeUnit(UNIT))) {
          f.write(0, bytes(size, -c), 0, size);
          servers.add(f.layout().servers());
        }
      }
    }
    for (int c = 0; c < combos.size(); c++) {
      List<String> killed = new ArrayList<>();
      for (int position : combos.get(c)) {
        killed.add(servers.get(c).get(position));
      }
      String path = dirName + "/f" + c;
      byte[] fresh = bytes(size, c);
      try {
        for (String id : killed) {
          cluster.signal(id, "KILL");
        }
        try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
          assertThat(read(fs, path, size))
              .as("file written healthy, read with %s killed", killed)
              .isEqualTo(bytes(size, -c));
          // decoding reuses the units read for their own bytes: k units per stripe, not k plus the
          // survivors
          long before = fs.ioCounters().shardBytesRead.get();
          read(fs, path, size);
          assertThat(fs.ioCounters().shardBytesRead.get() - before)
              .as("shard bytes fetched to read %d bytes with %s killed", size, killed)
              .isLessThanOrEqualTo(size + stripeBytes);
          try (TesseraFile f = fs.openFile(path)) {
            f.write(0, fresh, 0, size);
          }
          assertThat(read(fs, path, size))
              .as("file overwritten with %s killed", killed)
              .isEqualTo(fresh);
          assertThat(fs.stat(path).staleServers())
              .as("stale servers recorded")
              .containsExactlyInAnyOrderElementsOf(killed);
        }
      } finally {
        for (String id : killed) {
          cluster.restart(id);
        }
      }
      try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
        assertThat(read(fs, path, size))
            .as("file overwritten with %s killed, after they returned", killed)
            .isEqualTo(fresh);
        FileCheck check = fs.admin().check(path, true);
        assertThat(check.unreadableStripes()).as(check.toString()).isZero();
        assertThat(check.parityMismatches()).as(check.toString()).isZero();
        // recovery rebuilds the returned servers' stale shards: the file is whole again
        await("recovery rebuilds " + killed + "' shards of " + path)
            .atMost(Duration.ofSeconds(60))
            .until(() -> fs.stat(path).staleServers().isEmpty());
        // the last server rebuilt hears that it is up with its next heartbeat answer, and reads
        // around it until then
        FileCheck healed =
            await("every shard of " + path + " served again")
                .atMost(Duration.ofSeconds(10))
                .until(() -> fs.admin().check(path, true), now -> now.verdict().equals("HEALTHY"));
        assertThat(healed.parityMismatches()).as(healed.toString()).isZero();
        assertThat(read(fs, path, size)).as("file read after recovery").isEqualTo(fresh);
      }
    }
  }

  /**
   * A server comes back while a writer keeps rewriting parts of a file it missed. Recovery must
   * rebuild the file without holding up its writer for long, and copy it once per pass: a small
   * file (its units on one server fit one rebuild chunk) was copied twice when a write was in
   * flight as the copy started, doubling the rebuild's reads, decoding and time.
   */
  @Test
  void aSmallFileWrittenThroughoutItsRebuildIsCopiedOncePerPassAndHoldsEveryWrite()
      throws Exception {
    int stripes = 64;
    int size = stripes * 4 * UNIT;
    String path = "/rebuild-while-written";
    byte[] model = bytes(size, 7);
    Config conf =
        Config.of(
            Map.of(
                "tessera.client.meta",
                plan.metaAddresses(),
                "tessera.security.credentials",
                plan.adminCredentials().toString(),
                "tessera.client.down-server-retry-after",
                "1s"));
    try (TesseraFileSystem fs = TesseraFileSystem.connect(conf);
        TesseraFile f = fs.createFile(path, CreateOptions.erasure(4, 2).stripeUnit(UNIT))) {
      f.write(0, model, 0, size);
      String victim = f.layout().servers().get(0);
      long[] doneBefore = rebuilt(fs, victim);
      AtomicLong writes = new AtomicLong();
      AtomicLong longestWriteNanos = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      CompletableFuture<Void> writer =
          CompletableFuture.runAsync(
              () -> {
                Random r = new Random(11);
                while (!stop.get()) {
                  int len = (4 << 10) + r.nextInt(60 << 10);
                  int off = r.nextInt(size - len);
                  byte[] data = new byte[len];
                  r.nextBytes(data);
                  long start = System.nanoTime();
                  try {
                    f.write(off, data, 0, len);
                  } catch (Exception e) {
                    throw new CompletionException(e);
                  }
                  longestWriteNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
                  System.arraycopy(data, 0, model, off, len);
                  writes.incrementAndGet();
                }
              });
      try {
        cluster.signal(victim, "KILL");
        await(victim + " recorded stale")
            .atMost(Duration.ofSeconds(30))
            .until(() -> writer.isDone() || fs.stat(path).staleServers().contains(victim));
        cluster.restart(victim);
        await("recovery rebuilds " + victim + "'s shards")
            .atMost(Duration.ofSeconds(60))
            .until(() -> writer.isDone() || fs.stat(path).staleServers().isEmpty());
        long writesAtRebuilt = writes.get();
        // the writer goes on after the rebuild: it was neither failed nor left waiting on a lock
        await("a write acknowledged after the rebuild")
            .atMost(Duration.ofSeconds(30))
            .until(() -> writer.isDone() || writes.get() > writesAtRebuilt);
      } finally {
        stop.set(true);
      }
      writer.join();
      // the coordinator counts the pass once its commit (which cleared the stale mark) is answered
      await("recovery counts its pass over " + path)
          .atMost(Duration.ofSeconds(10))
          .until(() -> rebuilt(fs, victim)[0] > doneBefore[0]);
      // a write waits for a rebuild's copy of the stripes it touches, never for the whole rebuild
      // or a lock's lease
      assertThat(Duration.ofNanos(longestWriteNanos.get()))
          .as("longest of %d writes", writes.get())
          .isLessThan(Duration.ofSeconds(5));
      writer.join();
      long[] done = rebuilt(fs, victim);
      long passes = done[0] - doneBefore[0];
      long copied = done[1] - doneBefore[1];
      long unitsOnVictim = (long) stripes * UNIT;
      assertThat(copied)
          .as(
              "bytes rebuilt on %s in %d pass(es) over the file, whose units there are %d bytes",
              victim, passes, unitsOnVictim)
          .isBetween(unitsOnVictim, passes * unitsOnVictim);
      assertThat(read(fs, path, size))
          .as("the file after its rebuild, %d writes later", writes.get())
          .isEqualTo(model);
      // the rebuilt server hears that it is up with its next heartbeat answer; reads go around it
      // until then
      FileCheck healed =
          // the servers serve reads again at their next heartbeat after the rebuild: slow on a
          // loaded machine
          await("every shard of " + path + " served again")
              .atMost(Duration.ofSeconds(60))
              .until(() -> fs.admin().check(path, true), now -> now.verdict().equals("HEALTHY"));
      assertThat(healed.parityMismatches()).as(healed.toString()).isZero();
    }
  }

  /**
   * Two servers of a large file come back after missing a write to every part of it. Recovery
   * rebuilds the file on both, in one pass when both are back by then (the survivors are read and
   * decoded once for the two): each server is credited with its own units' bytes, every stripe is
   * decodable with matching parity, and the file reads back as written. The file spans several
   * rebuild chunks, so the chunk locks taken on both returned servers are released by both.
   */
  @Test
  void aLargeFileMissedByTwoServersIsRebuiltOnBothAndEachIsCreditedItsOwnUnits() throws Exception {
    int stripes = 1200; // each server's units span more than two rebuild chunks (8 MiB)
    int size = stripes * 4 * UNIT;
    String path = "/missed-by-two";
    try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
      List<String> killed;
      try (TesseraFile f = fs.createFile(path, CreateOptions.erasure(4, 2).stripeUnit(UNIT))) {
        f.write(0, bytes(size, 1), 0, size);
        killed = List.of(f.layout().servers().get(1), f.layout().servers().get(4));
      }
      Map<String, long[]> before =
          Map.of(
              killed.get(0), rebuilt(fs, killed.get(0)), killed.get(1), rebuilt(fs, killed.get(1)));
      byte[] fresh = bytes(size, 2);
      try {
        for (String id : killed) {
          cluster.signal(id, "KILL");
        }
        try (TesseraFile f = fs.openFile(path)) {
          f.write(0, fresh, 0, size);
        }
        assertThat(fs.stat(path).staleServers()).containsExactlyInAnyOrderElementsOf(killed);
      } finally {
        for (String id : killed) {
          cluster.restart(id);
        }
      }
      await("recovery rebuilds " + killed + "' shards of " + path)
          .atMost(Duration.ofSeconds(90))
          .until(() -> fs.stat(path).staleServers().isEmpty());
      long unitsOnEach = (long) stripes * UNIT;
      for (String id : killed) {
        await("recovery counts its bytes rebuilt on " + id)
            .atMost(Duration.ofSeconds(30))
            .until(() -> rebuilt(fs, id)[1] - before.get(id)[1] >= unitsOnEach);
        assertThat(rebuilt(fs, id)[1] - before.get(id)[1])
            .as("bytes credited to %s for %s", id, path)
            .isEqualTo(unitsOnEach);
      }
      FileCheck healed =
          // the servers serve reads again at their next heartbeat after the rebuild: slow on a
          // loaded machine
          await("every shard of " + path + " served again")
              .atMost(Duration.ofSeconds(60))
              .until(() -> fs.admin().check(path, true), now -> now.verdict().equals("HEALTHY"));
      assertThat(healed.parityMismatches()).as(healed.toString()).isZero();
      assertThat(read(fs, path, size))
          .as("the file after the rebuild on %s", killed)
          .isEqualTo(fresh);
    }
  }

  /** {files, bytes} recovery has rebuilt on the server so far, as the meta leader reports them. */
  private static long[] rebuilt(TesseraFileSystem fs, String server) throws Exception {
    return fs.admin().status().recovery().rebuilds().stream()
        .filter(r -> r.server().equals(server))
        .map(r -> new long[] {r.filesDone(), r.bytesDone()})
        .findFirst()
        .orElse(new long[2]);
  }

  private static byte[] read(TesseraFileSystem fs, String path, int size) throws Exception {
    byte[] got = new byte[size];
    try (TesseraFile f = fs.openFile(path)) {
      f.readFully(0, got, 0, size);
    }
    return got;
  }

  private static byte[] bytes(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /**
   * Sets of at most {@code m} positions out of {@code n}: all of them, or one per rotation class.
   */
  static List<int[]> killSets(int n, int m, boolean exhaustive) {
    List<int[]> out = new ArrayList<>();
    for (int mask = 0; mask < (1 << n); mask++) {
      if (Integer.bitCount(mask) > m || (!exhaustive && mask != smallestRotation(mask, n))) {
        continue;
      }
      int[] set = new int[Integer.bitCount(mask)];
      for (int i = 0, j = 0; i < n; i++) {
        if ((mask & (1 << i)) != 0) {
          set[j++] = i;
        }
      }
      out.add(set);
    }
    return out;
  }

  private static int smallestRotation(int mask, int n) {
    int best = mask;
    int r = mask;
    for (int i = 1; i < n; i++) {
      r = ((r >> 1) | ((r & 1) << (n - 1))) & ((1 << n) - 1);
      best = Math.min(best, r);
    }
    return best;
  }
}
