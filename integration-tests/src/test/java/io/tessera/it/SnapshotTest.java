package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.FileCheck;
import io.tessera.client.admin.SnapshotChange;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.client.admin.SnapshotRestorer;
import io.tessera.client.internal.ParityWriter;
import io.tessera.common.config.Config;
import io.tessera.common.fault.FaultPoints;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots of a busy file system, against a whole cluster in this JVM: one meta replica, nine data
 * servers.
 */
class SnapshotTest {
  @TempDir static Path dir;
  static InProcessFixture cluster;
  static TesseraFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    cluster = InProcessFixture.start(dir, 1, 9);
    fs = cluster.fs;
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** One writer's acknowledged history: every write it made, in order. */
  private static final class Writer {
    final int id;
    final TesseraFile file;
    final List<long[]> writes = new ArrayList<>(); // {position, length, seed}
    final AtomicInteger started = new AtomicInteger();
    final AtomicInteger acked = new AtomicInteger();

    Writer(int id, TesseraFile file) {
      this.id = id;
      this.file = file;
    }
  }

  private static final int FILE_BYTES = 4 << 20;

  @Test
  void twentySnapshotsUnderEightFullSpeedWritersEachHoldAnAcknowledgedStateWithMatchingParity()
      throws Exception {
    fs.mkdirs("/busy", CreateOptions.erasure(4, 2).stripeUnit(256 << 10));
    List<Writer> writers = new ArrayList<>();
    for (int w = 0; w < 8; w++) {
      writers.add(new Writer(w, fs.createFile("/busy/w" + w, CreateOptions.defaults())));
    }
    AtomicBoolean stop = new AtomicBoolean();
    List<Throwable> failures = new ArrayList<>();
    List<Thread> threads = new ArrayList<>();
    for (Writer w : writers) {
      Thread t =
          new Thread(
              () -> {
                Random rnd = new Random(w.id);
                try {
                  while (!stop.get()) {
                    int len = 1 + rnd.nextInt(1 << 20);
                    long pos = rnd.nextInt(FILE_BYTES - len);
                    long seed = rnd.nextLong();
                    synchronized (w.writes) {
                      w.writes.add(new long[] {pos, len, seed});
                    }
                    w.started.incrementAndGet();
                    w.file.write(pos, bytes(len, seed), 0, len);
                    w.acked.incrementAndGet();
                  }
                } catch (Throwable e) {
                  synchronized (failures) {
                    failures.add(e);
                  }
                }
              },
              "snapshot-writer-" + w.id);
      threads.add(t);
      t.start();
    }
    // the window of writes each snapshot may hold: acknowledged before it began .. begun before it
    // ended
    int[][] window = new int[20][];
    List<SnapshotInfo> taken = new ArrayList<>();
    try {
      for (int s = 0; s < 20; s++) {
        int[] before = writers.stream().mapToInt(w -> w.acked.get()).toArray();
        taken.add(fs.admin().snapshots().create("busy-" + s));
        int[] after = writers.stream().mapToInt(w -> w.started.get()).toArray();
        window[s] = new int[16];
        for (int w = 0; w < 8; w++) {
          window[s][2 * w] = before[w];
          window[s][2 * w + 1] = after[w];
        }
        Thread.sleep(1000);
      }
    } finally {
      stop.set(true);
      for (Thread t : threads) {
        t.join();
      }
    }
    assertThat(failures).isEmpty();
    assertThat(taken).hasSize(20);
    assertThat(writers.stream().mapToInt(w -> w.acked.get()).sum())
        .as("the writers kept writing")
        .isGreaterThan(100);
    for (int s = 0; s < 20; s++) {
      for (Writer w : writers) {
        String path = "/.snapshots/busy-" + s + "/busy/w" + w.id;
        byte[] content = readAll(path);
        assertThat(matchingState(w, content, window[s][2 * w.id], window[s][2 * w.id + 1]))
            .as("%s holds the file as it was after some acknowledged write", path)
            .isTrue();
        FileCheck check = fs.admin().check(path, true);
        assertThat(check.parityMismatches()).as("parity of %s", path).isZero();
        assertThat(check.unreadableStripes()).isZero();
      }
    }
  }

  /**
   * Whether {@code content} is the file after the writer's first j writes, for some j in [lo, hi].
   */
  private static boolean matchingState(Writer w, byte[] content, int lo, int hi) {
    byte[] model = new byte[0];
    List<long[]> writes;
    synchronized (w.writes) {
      writes = new ArrayList<>(w.writes);
    }
    for (int j = 0; j <= hi && j <= writes.size(); j++) {
      if (j >= lo && Arrays.equals(model, content)) {
        return true;
      }
      if (j == writes.size()) {
        break;
      }
      long[] wr = writes.get(j);
      int end = (int) (wr[0] + wr[1]);
      if (end > model.length) {
        model = Arrays.copyOf(model, end);
      }
      System.arraycopy(bytes((int) wr[1], wr[2]), 0, model, (int) wr[0], (int) wr[1]);
    }
    return false;
  }

  @Test
  void filesChangedAfterASnapshotReadBackAsTheyWereAndDiffListsExactlyTheChanges()
      throws Exception {
    fs.mkdirs("/proj", CreateOptions.erasure(4, 2).stripeUnit(64 << 10));
    byte[] a = bytes(700_000, 1);
    byte[] b = bytes(300_000, 2);
    byte[] c = bytes(500_000, 3);
    byte[] d = bytes(200_000, 4);
    write("/proj/overwritten", a);
    write("/proj/truncated", b);
    write("/proj/renamed", c);
    write("/proj/deleted", d);
    write("/proj/untouched", d);
    fs.mkdirs("/proj/dir");
    write("/proj/dir/inner", b);
    fs.admin().snapshots().create("before");

    try (TesseraFile f = fs.openFile("/proj/overwritten")) {
      f.write(1000, bytes(5000, 9), 0, 5000);
    }
    fs.truncate("/proj/truncated", 1234);
    fs.rename("/proj/renamed", "/proj/renamed-now");
    fs.delete("/proj/deleted", false);
    write("/proj/created", bytes(100, 5));
    fs.rename("/proj/dir", "/proj/moved-dir");
    try (TesseraFile f = fs.openFile("/proj/moved-dir/inner")) {
      f.write(0, bytes(10, 6), 0, 10);
    }
    fs.admin().snapshots().create("after");

    assertThat(readAll("/.snapshots/before/proj/overwritten")).isEqualTo(a);
    assertThat(readAll("/.snapshots/before/proj/truncated")).isEqualTo(b);
    assertThat(readAll("/.snapshots/before/proj/renamed")).isEqualTo(c);
    assertThat(readAll("/.snapshots/before/proj/deleted")).isEqualTo(d);
    assertThat(readAll("/.snapshots/before/proj/dir/inner")).isEqualTo(b);
    assertThat(fs.exists("/.snapshots/before/proj/created")).isFalse();
    assertThat(readAll("/proj/truncated")).isEqualTo(Arrays.copyOf(b, 1234));

    List<String> diff =
        fs.admin().snapshots().diff("before", "after").stream()
            .map(SnapshotChange::toString)
            .toList();
    assertThat(diff)
        .containsExactlyInAnyOrder(
            "M /proj/overwritten",
            "M /proj/truncated",
            "R /proj/renamed -> /proj/renamed-now",
            "- /proj/deleted",
            "+ /proj/created",
            "R /proj/dir -> /proj/moved-dir",
            "M /proj/moved-dir/inner");

    // read-only, validated, unique
    assertThatThrownBy(() -> fs.create("/.snapshots/before/proj/x", CreateOptions.defaults()))
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("read-only");
    assertThatThrownBy(() -> fs.delete("/.snapshots/before/proj/overwritten", false))
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("read-only");
    try (TesseraFile f = fs.openFile("/.snapshots/before/proj/overwritten")) {
      assertThatThrownBy(() -> f.write(0, new byte[1], 0, 1)).hasMessageContaining("read-only");
    }
    assertThatThrownBy(() -> fs.admin().snapshots().create("before"))
        .hasMessageContaining("already exists");
    assertThatThrownBy(() -> fs.admin().snapshots().create("../etc"))
        .hasMessageContaining("not valid");

    // restore one file, then the whole tree
    fs.admin().snapshots().restore("before", "/proj/overwritten", null);
    assertThat(readAll("/proj/overwritten")).isEqualTo(a);
    fs.admin().snapshots().restore("before", "/proj", null);
    assertThat(fs.list("/proj").stream().map(x -> x.name()).toList())
        .containsExactly("deleted", "dir", "overwritten", "renamed", "truncated", "untouched");
    assertThat(readAll("/proj/truncated")).isEqualTo(b);
    assertThat(readAll("/proj/dir/inner")).isEqualTo(b);

    // deleting the older snapshot keeps the newer one whole
    fs.admin().snapshots().delete("before");
    assertThat(fs.admin().snapshots().list().stream().map(SnapshotInfo::name))
        .doesNotContain("before");
    assertThat(readAll("/.snapshots/after/proj/renamed-now")).isEqualTo(c);
    assertThat(readAll("/.snapshots/after/proj/truncated")).isEqualTo(Arrays.copyOf(b, 1234));
  }

  /**
   * A snapshot shows its files read-only (write bits dropped); a restore brought a 0644 file back
   * as 0444, left a file whose mode alone changed since as it was, and gave restored directories
   * the time of the restore as their mtime.
   */
  @Test
  void aRestoredFileOrTreeHasTheModeAndMtimeItHadInTheSnapshot() throws Exception {
    fs.mkdirs("/modes/sub");
    write("/modes/rw", bytes(1000, 1));
    write("/modes/sub/exec", bytes(1000, 2));
    write("/modes/chmodded", bytes(1000, 3));
    fs.setMode("/modes/rw", 0644);
    fs.setMode("/modes/sub/exec", 0750);
    fs.setMode("/modes/chmodded", 0640);
    fs.setMode("/modes/sub", 0711);
    Map<String, FileStatus> before = new HashMap<>();
    for (String p : List.of("/modes/rw", "/modes/sub/exec", "/modes/chmodded", "/modes/sub")) {
      before.put(p, fs.stat(p));
    }
    SnapshotInfo made = fs.admin().snapshots().create("modes");
    assertThat(
            fs.admin().snapshots().list().stream()
                .filter(x -> x.name().equals("modes"))
                .findFirst()
                .orElseThrow()
                .tookMillis())
        .as("the time create reports is the one list shows")
        .isEqualTo(made.tookMillis());
    assertThat(fs.stat("/.snapshots/modes/modes/rw").mode())
        .as("the snapshot's view is read-only")
        .isEqualTo(0444);

    try (TesseraFile f = fs.createFile("/modes/rw", CreateOptions.defaults().overwrite(true))) {
      f.write(0, bytes(2000, 4), 0, 2000); // replaced: a new file
    }
    fs.setMode("/modes/rw", 0600);
    fs.setMode("/modes/chmodded", 0600); // content unchanged, only the mode
    fs.delete("/modes/sub", true);
    fs.admin().snapshots().create("modes-after");
    // a file replaced at its path (fs put -f) showed as "+ /p" and "- /p"
    assertThat(
            fs.admin().snapshots().diff("modes", "modes-after").stream()
                .map(SnapshotChange::toString)
                .toList())
        .contains("M /modes/rw", "M /modes/chmodded")
        .doesNotContain("+ /modes/rw", "- /modes/rw");
    fs.admin().snapshots().delete("modes-after");

    fs.admin().snapshots().restore("modes", "/modes/rw", null);
    assertThat(fs.stat("/modes/rw").mode()).isEqualTo(0644);
    assertThat(fs.stat("/modes/rw").modified()).isEqualTo(before.get("/modes/rw").modified());
    fs.admin().snapshots().restore("modes", "/", null); // the whole file system, as --all does
    for (var e : before.entrySet()) {
      FileStatus now = fs.stat(e.getKey());
      assertThat(Integer.toOctalString(now.mode()))
          .as("mode of %s", e.getKey())
          .isEqualTo(Integer.toOctalString(e.getValue().mode()));
      // a directory's too: restoring its entries had stamped it with the time of the restore
      assertThat(now.modified()).as("mtime of %s", e.getKey()).isEqualTo(e.getValue().modified());
    }
    assertThat(readAll("/modes/rw")).isEqualTo(bytes(1000, 1));
    fs.admin().snapshots().delete("modes");
  }

  /**
   * A diff left out a directory whose mode changed, and could only compare two snapshots; a tree
   * restore removed a file created since without saying so first.
   */
  @Test
  void aDiffAgainstTheLiveTreeShowsDirectoryModesAndARestorePlanNamesWhatItWouldRemove()
      throws Exception {
    fs.mkdirs("/plan/keep");
    write("/plan/keep/a", bytes(1000, 5));
    fs.admin().snapshots().create("plan");
    fs.setMode("/plan/keep", 0700);
    write("/plan/keep/created-since", bytes(10, 6));
    fs.mkdirs("/plan/new-dir/deeper");

    assertThat(fs.admin().snapshots().diffToLive("plan").stream().map(SnapshotChange::toString))
        .contains("M /plan/keep", "+ /plan/keep/created-since", "+ /plan/new-dir")
        .doesNotContain("M /plan/keep/a");

    SnapshotRestorer.Result plan = fs.admin().snapshots().planRestore("plan", "/plan");
    assertThat(plan.dryRun()).isTrue();
    assertThat(plan.removed()).containsExactly("/plan/keep/created-since", "/plan/new-dir");
    assertThat(plan.filesUnchanged()).isEqualTo(1);
    assertThat(fs.exists("/plan/keep/created-since")).as("a plan changes nothing").isTrue();
    assertThat(fs.stat("/plan/keep").mode()).isEqualTo(0700);

    SnapshotRestorer.Result done = fs.admin().snapshots().restore("plan", "/plan", null);
    assertThat(done.removed()).isEqualTo(plan.removed());
    assertThat(fs.admin().snapshots().diffToLive("plan")).isEmpty();
    fs.admin().snapshots().delete("plan");
  }

  @Test
  void aSnapshotTakenWhileAWriterHoldsItsLocksDoesNotWaitForItAndHoldsTheWriteWholeOnceItLands()
      throws Exception {
    fs.mkdirs("/held", CreateOptions.erasure(4, 2).stripeUnit(64 << 10));
    byte[] old = bytes(512 << 10, 21);
    write("/held/f", old);
    byte[] update = bytes(128 << 10, 22);
    byte[] expected = old.clone();
    System.arraycopy(update, 0, expected, 64 << 10, update.length);
    long[] snapshotMillis = new long[1];
    AtomicReference<CompletableFuture<byte[]>> readAtSnapshot = new AtomicReference<>();
    try (TesseraFileSystem writer =
            TesseraFileSystem.connect(
                Config.of(
                    Map.of(
                        "tessera.client.meta",
                        cluster.plan.metaAddresses(),
                        "tessera.security.credentials",
                        cluster.plan.adminCredentials().toString(),
                        "tessera.client.lock-lease",
                        "30s")));
        TesseraFile f = writer.openFile("/held/f")) {
      AtomicBoolean once = new AtomicBoolean();
      FaultPoints.arm(
          ParityWriter.BETWEEN_PHASES,
          writer.async(),
          () -> {
            if (once.getAndSet(true)) {
              return;
            }
            // the writer holds its stripe locks, its phase 2 not sent: a snapshot now
            long start = System.nanoTime();
            try {
              fs.admin().snapshots().create("held-1");
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
            snapshotMillis[0] = (System.nanoTime() - start) / 1_000_000;
            CompletableFuture<byte[]> reader =
                CompletableFuture.supplyAsync(
                    () -> {
                      try {
                        return readAll("/.snapshots/held-1/held/f");
                      } catch (Exception e) {
                        throw new CompletionException(e);
                      }
                    });
            assertThatThrownBy(() -> reader.get(500, TimeUnit.MILLISECONDS))
                .as("a read of the snapshot waits for the write it holds to land")
                .isInstanceOf(TimeoutException.class);
            readAtSnapshot.set(reader);
          });
      f.write(64 << 10, update, 0, update.length);
    }
    assertThat(snapshotMillis[0])
        .as("ms to take the snapshot while the writer held its locks (lease 30 s)")
        .isLessThan(10_000);
    assertThat(readAtSnapshot.get().get(30, TimeUnit.SECONDS))
        .as("the snapshot holds the write, which had its locks before it")
        .isEqualTo(expected);
    assertThat(readAll("/.snapshots/held-1/held/f")).isEqualTo(expected);
    assertThat(readAll("/held/f")).isEqualTo(expected);
    assertThat(fs.admin().check("/.snapshots/held-1/held/f", true).parityMismatches()).isZero();
  }

  @Test
  void
      aWriteGrowingTheFileThatASnapshotCatchesBetweenItsPhasesIsWrittenAgainAfterItAndTheSnapshotHasTheFileBefore()
          throws Exception {
    fs.mkdirs("/grow", CreateOptions.erasure(4, 2).stripeUnit(64 << 10));
    byte[] old = bytes(200 << 10, 31);
    write("/grow/f", old);
    byte[] tail = bytes(150 << 10, 32);
    try (TesseraFileSystem writer = TesseraFileSystem.connect(cluster.plan.clientConfig());
        TesseraFile f = writer.openFile("/grow/f")) {
      AtomicBoolean once = new AtomicBoolean();
      FaultPoints.arm(
          ParityWriter.BETWEEN_PHASES,
          writer.async(),
          () -> {
            if (!once.getAndSet(true)) {
              try {
                fs.admin().snapshots().create("grow-1");
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            }
          });
      // spans the old end: a snapshot with the new bytes below the old size but not the size would
      // tear it
      f.write(150 << 10, tail, 0, tail.length);
      assertThat(writer.ioCounters().snapshotRetries.get())
          .as("the size record came after the snapshot: written again")
          .isEqualTo(1);
    }
    byte[] now = Arrays.copyOf(old, (150 << 10) + tail.length);
    System.arraycopy(tail, 0, now, 150 << 10, tail.length);
    assertThat(readAll("/.snapshots/grow-1/grow/f")).as("the file before the write").isEqualTo(old);
    assertThat(readAll("/grow/f")).isEqualTo(now);
    assertThat(fs.admin().check("/.snapshots/grow-1/grow/f", true).parityMismatches()).isZero();
    assertThat(fs.admin().check("/grow/f", true).parityMismatches()).isZero();
  }

  @Test
  void
      aWriterThatDiesHalfWayThroughPhase2AfterASnapshotAtItsLocksEpochLeavesThatSnapshotWithParityMatchingItsData()
          throws Exception {
    fs.mkdirs("/torn", CreateOptions.erasure(4, 2).stripeUnit(64 << 10));
    write("/torn/f", bytes(512 << 10, 41));
    byte[] stripe = bytes(256 << 10, 42); // the whole first stripe: all six units change
    try (TesseraFileSystem dying =
            TesseraFileSystem.connect(
                Config.of(
                    Map.of(
                        "tessera.client.meta",
                        cluster.plan.metaAddresses(),
                        "tessera.security.credentials",
                        cluster.plan.adminCredentials().toString(),
                        "tessera.client.lock-lease",
                        "2s")));
        TesseraFile f = dying.openFile("/torn/f")) {
      FaultPoints.arm(
          ParityWriter.BETWEEN_PHASES,
          dying.async(),
          () -> {
            try {
              fs.admin()
                  .snapshots()
                  .create("torn-1"); // the write's locks were granted before it: it lands in torn-1
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
      FaultPoints.arm(
          ParityWriter.MID_PHASE2,
          dying.async(),
          () -> {
            throw new IllegalStateException("simulated crash half-way through phase 2");
          });
      assertThatThrownBy(() -> f.write(0, stripe, 0, stripe.length))
          .hasMessageContaining("simulated crash");
    }
    // three units landed, three did not: once the locks' lease ran out, recovery recomputes the
    // parity
    org.awaitility.Awaitility.await("recovery repairs the torn stripe of the live file")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> fs.admin().check("/torn/f", true).parityMismatches() == 0);
    assertThat(fs.admin().check("/.snapshots/torn-1/torn/f", true).parityMismatches())
        .as(
            "the snapshot holds the landed units at the write's epoch: its parity was repaired there too")
        .isZero();
    assertThat(readAll("/.snapshots/torn-1/torn/f"))
        .as("nothing was written after the snapshot")
        .isEqualTo(readAll("/torn/f"));
  }

  private static void write(String path, byte[] data) throws Exception {
    try (TesseraFile f = fs.createFile(path, CreateOptions.defaults())) {
      f.write(0, data, 0, data.length);
    }
  }

  private static byte[] readAll(String path) throws Exception {
    try (TesseraFile f = fs.openFile(path)) {
      byte[] out = new byte[(int) f.size()];
      f.readFully(0, out, 0, out.length);
      return out;
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }
}
