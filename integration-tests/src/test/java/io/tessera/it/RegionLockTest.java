package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.client.CreateOptions;
import io.tessera.client.OpenOptions;
import io.tessera.client.RegionLock;
import io.tessera.client.Sharing;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.Config;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Region locks and sharing intents (pCFS) between clients of one cluster in this JVM: each client
 * has its own connection and lease, as processes on different machines would.
 */
class RegionLockTest {
  @TempDir static Path dir;
  static InProcessCluster cluster;
  static ClusterPlan plan;
  static TesseraFileSystem alice;
  static TesseraFileSystem bob;

  @BeforeAll
  static void start() throws Exception {
    plan = new ClusterPlan(dir, 3, 4, TestPorts.freeBase(30));
    cluster = InProcessCluster.start(plan, Config.of(Map.of("tessera.meta.region-lease", "3s")));
    cluster.awaitReady(Duration.ofSeconds(60));
    alice = TesseraFileSystem.connect(plan.clientConfig());
    bob = TesseraFileSystem.connect(plan.clientConfig());
    alice.mkdir("/shared", false, CreateOptions.erasure(2, 1).stripeUnit(64 << 10));
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {alice, bob, cluster}) {
      if (c != null) {
        c.close();
      }
    }
  }

  private static TesseraFile create(String path) throws Exception {
    alice.createFile(path, CreateOptions.defaults()).close();
    return alice.openFile(path, OpenOptions.write());
  }

  @Test
  void twoClientsWritingDisjointRegionsUnderExclusiveLocksEachFindTheirOwnBytes() throws Exception {
    int region = 256 << 10;
    try (TesseraFile a = create("/shared/disjoint");
        TesseraFile b =
            bob.openFile(
                "/shared/disjoint", OpenOptions.write().sharing(Sharing.DISJOINT_WRITERS))) {
      byte[] as = new byte[region];
      byte[] bs = new byte[region];
      Arrays.fill(as, (byte) 'a');
      Arrays.fill(bs, (byte) 'b');
      try (RegionLock la = a.lock(0, region, false);
          RegionLock lb = b.lock(region, region, false)) {
        CompletableFuture<Void> wa = a.writeAsync(0, as, 0, region);
        CompletableFuture<Void> wb = b.writeAsync(region, bs, 0, region);
        CompletableFuture.allOf(wa, wb).get(60, TimeUnit.SECONDS);
        assertThat(la.isValid()).isTrue();
      }
      byte[] back = new byte[2 * region];
      bob.openFile("/shared/disjoint").readFully(0, back, 0, back.length);
      assertThat(Arrays.copyOfRange(back, 0, region)).containsOnly('a');
      assertThat(Arrays.copyOfRange(back, region, 2 * region)).containsOnly('b');
    }
  }

  @Test
  void aRegionAnotherClientUsesIsRefusedToTryLockAndGrantedToLockOnceReleased() throws Exception {
    try (TesseraFile a = create("/shared/contended");
        TesseraFile b = bob.openFile("/shared/contended", OpenOptions.write())) {
      RegionLock held = a.lock(0, 4096, false);
      assertThat(b.tryLock(100, 10, true)).as("Alice is using it").isNull();
      CompletableFuture<RegionLock> waiting =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return b.lock(0, 100, false, Duration.ofSeconds(30));
                } catch (Exception e) {
                  throw new RuntimeException(e);
                }
              });
      assertThat(waiting).isNotDone();
      held.release();
      RegionLock bobs = waiting.get(30, TimeUnit.SECONDS);
      assertThat(bobs.isValid()).isTrue();
      assertThatThrownBy(() -> a.lock(50, 10, true, Duration.ofMillis(1500)))
          .as("Bob uses it now: Alice's wait runs out, naming him")
          .isInstanceOfSatisfying(
              TesseraException.class, e -> assertThat(e.status()).isEqualTo(StatusProto.BUSY))
          .hasMessageContaining("pid " + ProcessHandle.current().pid());
      bobs.close();
    }
  }

  @Test
  void aReleasedRegionStaysCachedUntilAnotherClientAsksThenItIsCalledBack() throws Exception {
    try (TesseraFile a = create("/shared/cached");
        TesseraFile b = bob.openFile("/shared/cached", OpenOptions.write())) {
      a.lock(0, 1 << 20, false).close();
      long before = alice.async().ioCounters().regionRoundTrips.get();
      for (int i = 0; i < 100; i++) {
        try (RegionLock l = a.lock(i * 4096L, 4096, false)) {
          assertThat(l.isValid()).isTrue();
        }
      }
      assertThat(alice.async().ioCounters().regionRoundTrips.get())
          .as("100 lock/unlock pairs inside a cached region: no round trip")
          .isEqualTo(before);

      long asked = System.nanoTime();
      try (RegionLock l = b.lock(8192, 4096, false, Duration.ofSeconds(20))) {
        assertThat(l.isValid()).isTrue();
      }
      assertThat(Duration.ofNanos(System.nanoTime() - asked))
          .as("called back from Alice at once, not after her lease")
          .isLessThan(Duration.ofSeconds(3));
      try (RegionLock l = a.lock(0, 4096, false, Duration.ofSeconds(5))) {
        assertThat(l.isValid()).as("Alice kept the parts Bob did not ask for").isTrue();
      }
    }
  }

  @Test
  void aFileChannelsLockAndTryLockAreRegionLocksAgainstOtherClients() throws Exception {
    try (TesseraFile a = create("/shared/channel");
        TesseraFile b = bob.openFile("/shared/channel", OpenOptions.write());
        FileChannel ac = a.newByteChannel();
        FileChannel bc = b.newByteChannel()) {
      FileLock held = ac.lock(0, 100, false);
      assertThat(held.isValid()).isTrue();
      assertThat(bc.tryLock(50, 100, true)).as("overlaps Alice's lock in use").isNull();
      assertThat(bc.tryLock(100, 100, false)).as("next to it").isNotNull();
      held.release();
      FileLock bobs = bc.tryLock(0, 100, true);
      assertThat(bobs).isNotNull();
      assertThat(bobs.isShared()).isTrue();
      bobs.release();
      assertThat(bobs.isValid()).isFalse();
    }
  }

  @Test
  void anOpenWhoseIntentConflictsIsRefusedNamingWhoHoldsWhatAndAdmittedOnceTheyClose()
      throws Exception {
    create("/shared/intents").close();
    TesseraFile a =
        alice.openFile("/shared/intents", OpenOptions.write().sharing(Sharing.DISJOINT_WRITERS));
    TesseraFile b =
        bob.openFile("/shared/intents", OpenOptions.write().sharing(Sharing.DISJOINT_WRITERS));
    Map<String, String> refusals = new HashMap<>();
    for (Sharing s : new Sharing[] {Sharing.EXCLUSIVE, Sharing.ANY}) {
      try (TesseraFileSystem carol = TesseraFileSystem.connect(plan.clientConfig())) {
        assertThatThrownBy(() -> carol.openFile("/shared/intents", OpenOptions.write().sharing(s)))
            .isInstanceOfSatisfying(
                TesseraException.class, e -> refusals.put(s.name(), e.getMessage()));
      }
    }
    assertThat(refusals.get("EXCLUSIVE")).contains("has it open disjoint writers");
    assertThat(refusals.get("ANY")).contains("does not admit any");
    a.close();
    b.close();
    try (TesseraFileSystem carol = TesseraFileSystem.connect(plan.clientConfig());
        TesseraFile c =
            carol.openFile("/shared/intents", OpenOptions.read().sharing(Sharing.EXCLUSIVE))) {
      assertThat(c.sharing()).isEqualTo(Sharing.EXCLUSIVE);
    }
  }

  @Test
  void theCliListsWhoHoldsWhatAndTheExerciserPrintsOneLinePerKind() throws Exception {
    try (TesseraFile a = create("/shared/listed");
        RegionLock l = a.lock(0, 65536, true)) {
      InProcessCli.Result locks = cli("fs", "locks", "/shared/listed");
      assertThat(locks.code()).as(locks.err()).isZero();
      assertThat(locks.out())
          .contains("CLIENT", "[0, 65536)", "shared", "pid " + ProcessHandle.current().pid());
    }
    InProcessCli.Result ex =
        cli(
            "bench",
            "exerciser",
            "--pattern",
            "SP",
            "--size",
            "512K",
            "--record",
            "64K",
            "--processes",
            "2",
            "--all",
            "--dir",
            "/shared/ex");
    assertThat(ex.code()).as(ex.err()).isZero();
    for (String kind : List.of("wrt", "wrt-lck", "wrt-sml-lck", "rdr", "rdr-lck", "rdr-sml-lck")) {
      assertThat(ex.out()).containsPattern("(?m)^" + kind + ": [0-9.]+ MB/s$");
    }
    InProcessCli.Result bad = cli("bench", "exerciser", "--pattern", "SPX");
    assertThat(bad.code()).isNotZero();
    assertThat(bad.err()).contains("string of S and P steps");
  }

  private static InProcessCli.Result cli(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--meta", plan.metaAddresses()));
    return InProcessCli.run(plan.adminCredentials(), all.toArray(String[]::new));
  }
}
