package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.tessera.cli.Tessera;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.FileCheck;
import io.tessera.client.internal.ParityWriter;
import io.tessera.common.config.Config;
import io.tessera.common.fault.FaultPoints;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.TransportSecurity;
import io.tessera.common.status.TesseraException;
import io.tessera.localcluster.ClusterPlan;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files with parity against a whole cluster in this JVM: one meta replica, nine data servers. */
class ErasureCodingTest {
  @TempDir static Path dir;
  static InProcessFixture cluster;
  static ClusterPlan plan;
  static TesseraFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessFixture.start(dir, 1, 9);
    plan = cluster.plan;
    fs = cluster.fs;
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** An admin client whose stripe locks lapse 2 s after it stops renewing them. */
  private static Config shortLockLease() {
    return Config.of(
        Map.of(
            "tessera.client.meta",
            plan.metaAddresses(),
            "tessera.security.credentials",
            plan.adminCredentials().toString(),
            "tessera.client.lock-lease",
            "2s"));
  }

  @Test
  void randomWritesTruncatesAndReadsMatchAnInMemoryModelWhateverTheLayout() throws Exception {
    Random rnd = new Random(33);
    CreateOptions[] layouts = {
      CreateOptions.erasure(4, 2).stripeUnit(4096),
      CreateOptions.erasure(3, 1).stripeUnit(65536),
      CreateOptions.erasure(2, 3).stripeUnit(1 << 20),
      CreateOptions.erasure(6, 3).stripeUnit(16384),
      CreateOptions.striped(5).stripeUnit(8192)
    };
    fs.mkdirs("/model");
    for (int l = 0; l < layouts.length; l++) {
      String path = "/model/f" + l;
      ModelFile.exercise(fs, path, layouts[l], rnd, 60);
      FileCheck check = fs.admin().check(path, true);
      assertThat(check.parityMismatches()).as("%s parity", path).isZero();
      assertThat(check.healthy()).as(check.toString()).isTrue();
    }
  }

  /**
   * Eight writers, one 4+2 file, 30 s. Each writer owns an 8 KiB slice of every unit of the first
   * stripes (so every stripe is shared by several writers, but their bytes do not overlap) and also
   * writes anywhere in the last stripes, overlapping the others.
   */
  @Test
  void eightWritersOnOneFileLeaveParityConsistentAndTheirOwnBytesIntact() throws Exception {
    int writers = 8;
    int unit = 64 << 10;
    int slice = unit / writers;
    int privateStripes = 8;
    int sharedStripes = 4;
    long stripe = 4L * unit;
    long fileSize = (privateStripes + sharedStripes) * stripe;
    fs.mkdirs("/concurrent");
    fs.createFile("/concurrent/shared", CreateOptions.erasure(4, 2).stripeUnit(unit)).close();
    byte[][] models = new byte[writers][(int) fileSize];
    boolean[][] owned = new boolean[writers][(int) fileSize];
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    List<TesseraFileSystem> clients = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int me = w;
        TesseraFileSystem c = TesseraFileSystem.connect(plan.clientConfig());
        clients.add(c);
        results.add(
            pool.submit(
                () -> {
                  Random rnd = new Random(me);
                  int writes = 0;
                  try (TesseraFile f = c.openFile("/concurrent/shared")) {
                    while (System.nanoTime() < deadline) {
                      if (rnd.nextInt(4) > 0) {
                        // my own bytes: a run inside my slice of one unit of a private stripe
                        long s = rnd.nextInt(privateStripes);
                        int u = rnd.nextInt(4);
                        int from = rnd.nextInt(slice);
                        int len = 1 + rnd.nextInt(slice - from);
                        long pos = s * stripe + (long) u * unit + (long) me * slice + from;
                        byte[] data = new byte[len];
                        rnd.nextBytes(data);
                        f.write(pos, data, 0, len);
                        System.arraycopy(data, 0, models[me], (int) pos, len);
                        Arrays.fill(owned[me], (int) pos, (int) pos + len, true);
                      } else {
                        // anywhere in the shared stripes, across unit boundaries
                        long base = privateStripes * stripe;
                        int from = rnd.nextInt((int) (sharedStripes * stripe));
                        int len =
                            1
                                + rnd.nextInt(
                                    (int) Math.min(2 * unit, sharedStripes * stripe - from));
                        byte[] data = new byte[len];
                        rnd.nextBytes(data);
                        f.write(base + from, data, 0, len);
                      }
                      writes++;
                    }
                  }
                  return writes;
                }));
      }
      int total = 0;
      for (Future<Integer> r : results) {
        total += r.get();
      }
      assertThat(total).as("writes done in 30 s").isGreaterThan(100);
    } finally {
      pool.shutdownNow();
    }
    long refusals = clients.stream().mapToLong(c -> c.ioCounters().lockRefusals.get()).sum();
    clients.forEach(TesseraFileSystem::close);
    assertThat(refusals).as("writers met each other's locks").isPositive();

    byte[] all = new byte[(int) fs.stat("/concurrent/shared").size()];
    try (TesseraFile f = fs.openFile("/concurrent/shared")) {
      f.readFully(0, all, 0, all.length);
    }
    for (int w = 0; w < writers; w++) {
      for (int i = 0; i < privateStripes * stripe; i++) {
        if (owned[w][i] && all[i] != models[w][i]) {
          throw new AssertionError("writer " + w + "'s byte " + i + " is not what it last wrote");
        }
      }
    }
    StringWriter out = new StringWriter();
    int code =
        Tessera.run(
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true),
            "fsck",
            "--meta",
            plan.metaAddresses(),
            "--credentials",
            plan.adminCredentials().toString(),
            "--verify-parity",
            "/concurrent");
    assertThat(out.toString()).contains("HEALTHY", "0 parity mismatch");
    assertThat(code).as(out.toString()).isZero();
  }

  @Test
  void aLockLeftByAWriterThatDiedBetweenThePhasesExpiresAndOthersWriteOn() throws Exception {
    fs.mkdirs("/orphan");
    try (TesseraFile f = fs.createFile("/orphan/f", CreateOptions.erasure(4, 2).stripeUnit(4096))) {
      f.write(0, new byte[16384], 0, 16384);
    }
    Config shortLease = shortLockLease();
    try (TesseraFileSystem dying = TesseraFileSystem.connect(shortLease);
        TesseraFile f = dying.openFile("/orphan/f")) {
      FaultPoints.arm(
          ParityWriter.BETWEEN_PHASES,
          dying.async(),
          () -> {
            throw new IllegalStateException("simulated crash between the write phases");
          });
      assertThatThrownBy(() -> f.write(100, new byte[] {1, 2, 3}, 0, 3))
          .hasMessageContaining("simulated crash");
    }
    byte[] mine = new byte[5000];
    new Random(5).nextBytes(mine);
    long start = System.nanoTime();
    try (TesseraFile f = fs.openFile("/orphan/f")) {
      f.write(50, mine, 0, mine.length);
      long waited = (System.nanoTime() - start) / 1_000_000;
      assertThat(fs.ioCounters().lockRefusals.get()).as("the orphan lock was there").isPositive();
      assertThat(waited).as("ms until the orphan lock's lease ran out").isLessThan(10_000);
      byte[] got = new byte[mine.length];
      f.readFully(50, got, 0, got.length);
      assertThat(got).isEqualTo(mine);
    }
  }

  @Test
  void aWriterHeldUpLongerThanItsLeaseKeepsItsLocksWhileItRenewsThem() throws Exception {
    fs.mkdirs("/held-up");
    try (TesseraFile f =
        fs.createFile("/held-up/f", CreateOptions.erasure(4, 2).stripeUnit(4096))) {
      f.write(0, new byte[16384], 0, 16384);
    }
    byte[] slowBytes = new byte[3000];
    Arrays.fill(slowBytes, (byte) 9);
    try (TesseraFileSystem slowClient = TesseraFileSystem.connect(shortLockLease());
        TesseraFile slow = slowClient.openFile("/held-up/f")) {
      FaultPoints.arm(
          ParityWriter.BETWEEN_PHASES,
          slowClient.async(),
          () -> {
            // a loaded cluster holds the write between its phases for three of its 2 s leases;
            // the process is alive and renews its locks
            FaultPoints.disarm(ParityWriter.BETWEEN_PHASES, slowClient.async());
            try {
              Thread.sleep(6_000);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          });
      slow.write(100, slowBytes, 0, slowBytes.length);
      assertThat(slowClient.ioCounters().lockLossRetries.get())
          .as("writes that lost their locks and were made again")
          .isZero();
    }
    byte[] got = new byte[slowBytes.length];
    try (TesseraFile f = fs.openFile("/held-up/f")) {
      f.readFully(100, got, 0, got.length);
    }
    assertThat(got).isEqualTo(slowBytes);
    assertThat(fs.admin().check("/held-up/f", true).healthy()).isTrue();
  }

  @Test
  void aWriterPausedPastItsLeaseIsRefusedThenWritesAgainWithALongerLease() throws Exception {
    fs.mkdirs("/paused");
    try (TesseraFile f = fs.createFile("/paused/f", CreateOptions.erasure(4, 2).stripeUnit(4096))) {
      f.write(0, new byte[16384], 0, 16384);
    }
    byte[] later = new byte[3000];
    new Random(6).nextBytes(later);
    Config shortLease = shortLockLease();
    byte[] slowBytes = new byte[3000];
    Arrays.fill(slowBytes, (byte) 7);
    try (TesseraFileSystem paused = TesseraFileSystem.connect(shortLease);
        TesseraFile slow = paused.openFile("/paused/f")) {
      FaultPoints.arm(
          ParityWriter.BETWEEN_PHASES,
          paused.async(),
          () -> {
            // once, a long GC pause between the phases, which stops the lock renewals too:
            // meanwhile the lease runs out, recovery repairs the stripe and another writer writes
            // it
            FaultPoints.disarm(ParityWriter.BETWEEN_PHASES, paused.async());
            FaultPoints.arm(
                ParityWriter.LOCK_RENEWAL,
                paused.async(),
                () -> {
                  throw new IllegalStateException("paused");
                });
            try (TesseraFile f = fs.openFile("/paused/f")) {
              f.write(100, later, 0, later.length);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            } finally {
              FaultPoints.disarm(ParityWriter.LOCK_RENEWAL, paused.async());
            }
          });
      // the first phase 2 is refused (its lock was repaired away: it must not land over the other
      // writer's bytes); nothing was acknowledged, so the write is made again whole, with a lease
      // twice as long as that attempt held its locks
      slow.write(100, slowBytes, 0, slowBytes.length);
      assertThat(paused.ioCounters().lockLossRetries.get()).isEqualTo(1);
    }
    byte[] got = new byte[later.length];
    try (TesseraFile f = fs.openFile("/paused/f")) {
      f.readFully(100, got, 0, got.length);
    }
    assertThat(got).as("the write that finished last").isEqualTo(slowBytes);
    assertThat(fs.admin().check("/paused/f", true).healthy())
        .as("parity matches the data")
        .isTrue();
  }

  @Test
  void impossibleLayoutsAreRefusedAtCreationWithTheReason() {
    assertThatThrownBy(() -> fs.createFile("/too-wide", CreateOptions.erasure(8, 2)))
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("needs 10 data servers; the cluster has 9")
        .satisfies(
            e -> assertThat(((TesseraException) e).status()).isEqualTo(StatusProto.NO_SPACE));
    assertThatThrownBy(() -> fs.createFile("/no-data", CreateOptions.erasure(0, 2)))
        .hasMessageContaining("at least one data unit");
    assertThatThrownBy(
            () -> fs.createFile("/odd-unit", CreateOptions.erasure(4, 2).stripeUnit(5000)))
        .hasMessageContaining("power of two");
  }

  @Test
  void moreParityThanDataIsAllowed() throws IOException {
    byte[] data = new byte[100_000];
    new Random(9).nextBytes(data);
    try (TesseraFile f =
        fs.createFile("/wide-parity", CreateOptions.erasure(2, 5).stripeUnit(4096))) {
      f.write(0, data, 0, data.length);
    }
    assertThat(fs.admin().check("/wide-parity", true).healthy()).isTrue();
  }

  @Test
  void fsckRepairRecomputesParityThatNoLongerMatchesItsData() throws Exception {
    int unit = 16 << 10;
    byte[] content = new byte[3 * 4 * unit];
    StripeLayout layout = writeRandom4Plus2("/torn", unit, content, 8);
    long fileId = fs.admin().check("/torn", true).fileId();
    // a data unit changed behind the parity's back (no lock, no parity update): stripe 1 is torn
    byte[] stomp = new byte[100];
    new Random(9).nextBytes(stomp);
    writeBehindParity(layout.serverOf(1, 0), fileId, 1, 0, stomp);
    FileCheck torn = fs.admin().check("/torn", true);
    assertThat(torn.parityMismatches()).as(torn.toString()).isEqualTo(1);
    assertThat(torn.mismatchedStripes()).containsExactly(1L);

    fs.admin().repair(torn);

    FileCheck repaired = fs.admin().check("/torn", true);
    assertThat(repaired.verdict()).as(repaired.toString()).isEqualTo("HEALTHY");
    System.arraycopy(stomp, 0, content, 4 * unit, stomp.length); // the data units are what counts
    byte[] got = new byte[content.length];
    try (TesseraFile f = fs.openFile("/torn")) {
      f.readFully(0, got, 0, got.length);
    }
    assertThat(got).isEqualTo(content);
  }

  /**
   * Data stored in a stripe whose parity units are holes (what recovery once wrote into holes):
   * fsck counts that parity missing and names the stripe, not its parity servers (rebuilding every
   * server named would leave too few current units to read the file); repair recomputes the
   * stripe's parity, and the file stays readable with a server gone.
   */
  @Test
  void fsckRepairRecomputesParityMissingBesideStoredDataAndNamesNoServer() throws Exception {
    int unit = 16 << 10;
    byte[] content = new byte[4 * unit];
    StripeLayout layout = writeRandom4Plus2("/unprotected", unit, content, 12);
    content = Arrays.copyOf(content, 3 * 4 * unit);
    try (TesseraFile f = fs.openFile("/unprotected")) {
      f.truncate(content.length); // stripes 1 and 2 are holes on every server
    }
    long fileId = fs.admin().check("/unprotected", true).fileId();
    byte[] data = new byte[unit];
    new Random(13).nextBytes(data);
    writeBehindParity(layout.serverOf(2, 1), fileId, 2, 1, data);
    System.arraycopy(data, 0, content, 2 * 4 * unit + unit, unit);

    FileCheck found = fs.admin().check("/unprotected", false);
    assertThat(found.verdict()).as(found.toString()).isEqualTo("DEGRADED");
    assertThat(found.missingShards()).as("the two parity holes beside the data").isEqualTo(2);
    assertThat(found.unprotectedStripes()).containsExactly(2L);
    assertThat(found.damagedServers()).as("no server's shards are damaged").isEmpty();

    fs.admin().repair(found);

    FileCheck repaired = fs.admin().check("/unprotected", true);
    assertThat(repaired.verdict()).as(repaired.toString()).isEqualTo("HEALTHY");
    assertThat(fs.stat("/unprotected").staleServers()).isEmpty();
    assertThat(readAll("/unprotected", content.length)).isEqualTo(content);
  }

  /**
   * Recovery checks a file it rebuilt as fsck would: data beside parity holes gets its parity
   * recomputed, so the file is HEALTHY once recovery calls it rebuilt, with no fsck --repair.
   */
  @Test
  void aRebuiltFileWithDataBesideParityHolesGetsItsParityRecomputedByRecovery() throws Exception {
    int unit = 16 << 10;
    byte[] content = new byte[4 * unit];
    StripeLayout layout = writeRandom4Plus2("/checked-after-rebuild", unit, content, 14);
    content = Arrays.copyOf(content, 2 * 4 * unit);
    try (TesseraFile f = fs.openFile("/checked-after-rebuild")) {
      f.truncate(content.length);
    }
    FileCheck before = fs.admin().check("/checked-after-rebuild", false);
    byte[] data = new byte[unit];
    new Random(15).nextBytes(data);
    writeBehindParity(layout.serverOf(1, 0), before.fileId(), 1, 0, data);
    System.arraycopy(data, 0, content, 4 * unit, unit);
    // recovery rewrites the shards of the server holding the stripe's first parity unit (as after a
    // corrupt shard there); the second stays a hole beside the data until the check after the
    // rebuild
    String other = layout.serverOf(1, 4);
    fs.admin()
        .repair(
            new FileCheck(
                before.path(),
                before.layout(),
                0,
                0,
                0,
                0,
                0,
                List.of(),
                List.of(other),
                List.of(),
                List.of(),
                before.fileId(),
                true));

    FileCheck after =
        org.awaitility.Awaitility.await("recovery rebuilds " + other + " and checks the file")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () -> fs.admin().check("/checked-after-rebuild", true),
                c -> c.verdict().equals("HEALTHY"));
    assertThat(after.stripes()).isEqualTo(2);
    assertThat(readAll("/checked-after-rebuild", content.length)).isEqualTo(content);
  }

  /**
   * `fsck --verify-parity` checked nothing in a stripe with a unit missing, though parity was left
   * to check.
   */
  @Test
  void fsckVerifiesTheParityLeftInAStripeWhoseServerIsDown() throws Exception {
    int unit = 16 << 10;
    byte[] content = new byte[3 * 4 * unit];
    StripeLayout layout = writeRandom4Plus2("/degraded-verify", unit, content, 16);
    long fileId = fs.admin().check("/degraded-verify", true).fileId();
    writeBehindParity(
        layout.serverOf(1, 5), fileId, 1, 5, new byte[] {1, 2, 3}); // stripe 1's second parity
    String down = layout.serverOf(1, 0);
    cluster.cluster.stopData(down);
    try (TesseraFileSystem other = TesseraFileSystem.connect(plan.clientConfig())) {
      FileCheck c = other.admin().check("/degraded-verify", true);
      assertThat(c.missingShards()).as(c.toString()).isEqualTo(3);
      assertThat(c.parityVerified()).as("every stripe has 5 of its 6 units").isEqualTo(3);
      assertThat(c.mismatchedStripes()).as(c.toString()).containsExactly(1L);
      assertThat(c.verdict()).isEqualTo("DAMAGED");
    } finally {
      cluster.cluster.startData(down);
    }
    fs.admin().repair(fs.admin().check("/degraded-verify", true));
    assertThat(readAll("/degraded-verify", content.length)).isEqualTo(content);
  }

  private static byte[] readAll(String path, int size) throws IOException {
    byte[] got = new byte[size];
    try (TesseraFile f = fs.openFile(path)) {
      f.readFully(0, got, 0, got.length);
    }
    return got;
  }

  /**
   * Stores {@code bytes} at the start of one unit straight on its data server: no lock, no parity
   * update (as a torn write leaves a unit). Sent with a meta replica's credentials, which need no
   * access token.
   */
  private static void writeBehindParity(
      String server, long fileId, long stripe, int unit, byte[] bytes) throws Exception {
    try (RpcClientPool pool =
        new RpcClientPool(
            "behind-parity",
            1,
            1 << 20,
            5000,
            2000,
            5000,
            TransportSecurity.tls(Credentials.load(plan.credentialsFile("m1"))))) {
      byte[] header =
          DataRequestProto.newBuilder()
              .setWrite(
                  WriteShardsRequestProto.newBuilder()
                      .addRanges(
                          ShardRangeProto.newBuilder()
                              .setFileId(fileId)
                              .setStripe(stripe)
                              .setUnit(unit)
                              .setOffset(0)
                              .setLength(bytes.length)))
              .build()
              .toByteArray();
      Frame reply =
          pool.call(
                  "127.0.0.1:" + plan.dataPort(server),
                  Service.DATA,
                  header,
                  Unpooled.wrappedBuffer(bytes))
              .get(10, TimeUnit.SECONDS);
      try {
        assertThat(DataResponseProto.parseFrom(reply.header()).getStatus())
            .as("the unit written behind its parity")
            .isEqualTo(StatusProto.OK);
      } finally {
        reply.release();
      }
    }
  }

  @Test
  void aShardThatFailsItsChecksumIsReadAroundWhetherStreamedOrReadByPosition() throws Exception {
    int unit = 64 << 10;
    byte[] content = new byte[5 * 4 * unit + 777];
    StripeLayout layout = writeRandom4Plus2("/rotten", unit, content, 10);
    long fileId = fs.admin().check("/rotten", false).fileId();
    String server = layout.serverOf(2, 1);
    List<Path> rotted;
    try (Stream<Path> files =
        Files.walk(plan.dataDir(server).resolve("shards").resolve("values"))) {
      rotted = files.filter(p -> p.getFileName().toString().startsWith(fileId + ".")).toList();
    }
    assertThat(rotted).as("value files of the file on %s", server).isNotEmpty();
    for (Path file : rotted) {
      byte[] bytes = Files.readAllBytes(file);
      bytes[bytes.length / 3] ^= 0x5A;
      Files.write(file, bytes);
    }

    try (TesseraFile f = fs.openFile("/rotten")) {
      try (InputStream in = f.newInputStream(0)) {
        assertThat(Arrays.mismatch(in.readAllBytes(), content))
            .as("first byte streamed wrong")
            .isEqualTo(-1);
      }
      byte[] got = new byte[content.length];
      f.readFully(0, got, 0, got.length);
      assertThat(Arrays.mismatch(got, content))
          .as("first byte read by position wrong")
          .isEqualTo(-1);
    }
  }

  /**
   * A new 4+2 file at {@code path} holding {@code content}, filled with random bytes first; returns
   * its layout.
   */
  private static StripeLayout writeRandom4Plus2(String path, int unit, byte[] content, long seed)
      throws IOException {
    new Random(seed).nextBytes(content);
    try (TesseraFile f = fs.createFile(path, CreateOptions.erasure(4, 2).stripeUnit(unit))) {
      f.write(0, content, 0, content.length);
      return f.layout();
    }
  }
}
