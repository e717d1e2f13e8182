package io.tessera.it.nfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.emc.ecs.nfsclient.nfs.NfsCreateMode;
import io.tessera.client.AttributeChange;
import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.Owner;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.security.Identity;
import io.tessera.it.Promtool;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterCredentials;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The NFS gateway of a process-per-server cluster (one meta replica, six data servers), used by
 * clients nobody here wrote: Debian's libnfs tools and a Java NFSv3 client. The failure stories: a
 * listing that misses or repeats entries, a copy that is not byte for byte, a write through a
 * snapshot, a random write that corrupts an erasure-coded stripe, a handle that names another file
 * once its own is gone, a client outside an export that keeps access, and a gateway killed between
 * WRITE and COMMIT that loses what the client was told is committed.
 */
class NfsGatewayProcessTest {
  static ProcessCluster cluster;
  static ClusterPlan plan;
  static TesseraFileSystem fs;
  static LoopbackPortmap portmap;
  static final List<Process> extraGateways = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    plan =
        new ClusterPlan(TestDirs.fresh("nfs"), 1, 6, TestPorts.freeBase(40)).withNfs().withHttp();
    cluster = ProcessCluster.start(plan, ServerLaunchers.defaults(), List.of());
    cluster.awaitReady(Duration.ofSeconds(120));
    fs = TesseraFileSystem.connect(plan.clientConfig());
    portmap = new LoopbackPortmap();
    portmap.point(plan.nfsPort(), plan.mountPort());
  }

  @AfterAll
  static void stop() throws Exception {
    extraGateways.forEach(Process::destroy);
    if (portmap != null) {
      portmap.close();
    }
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  static String url(String path) {
    return url(path, plan.nfsPort(), plan.mountPort());
  }

  /**
   * The user the tests' NFS clients act as: the default export squashes root, as every export does
   * unless it says no_root_squash.
   */
  static final int USER = 1000;

  static String url(String path, int nfsPort, int mountPort) {
    return "nfs://127.0.0.1"
        + path
        + "?version=3&nfsport="
        + nfsPort
        + "&mountport="
        + mountPort
        + "&uid="
        + USER
        + "&gid="
        + USER;
  }

  /** A directory (with its parents) that {@link #USER} owns. */
  private static void mine(String dir) throws IOException {
    fs.mkdirs(dir);
    fs.setAttributes(dir, AttributeChange.owner(USER, USER));
  }

  /** A command's exit code and output. */
  record Run(int code, String out, String err) {}

  static Run run(String... cmd) throws IOException, InterruptedException {
    Path out = Files.createTempFile("nfs-out", ".txt");
    Path err = Files.createTempFile("nfs-err", ".txt");
    try {
      Process p =
          new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(
            cmd[cmd.length - 3]
                + " did not finish in 120 s; its output so far: "
                + Files.readString(out)
                + Files.readString(err));
      }
      return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  private static byte[] random(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static byte[] readTessera(String path) throws IOException {
    try (InputStream in = fs.open(path)) {
      return in.readAllBytes();
    }
  }

  /** A file written through the Tessera API and given to {@link #USER}. */
  private static void writeTessera(String path, CreateOptions how, byte[] data) throws IOException {
    try (OutputStream out = fs.create(path, how)) {
      out.write(data);
    }
    fs.setAttributes(path, AttributeChange.owner(USER, USER));
  }

  @Test
  void nfsLsListsATreeOfTenThousandFilesWithNoneMissedOrRepeated() throws Exception {
    fs.mkdirs("/tree");
    List<CompletableFuture<?>> made = new ArrayList<>();
    for (int d = 0; d < 10; d++) {
      fs.mkdirs("/tree/d" + d);
      for (int f = 0; f < 1000; f++) {
        made.add(
            fs.async()
                .create("/tree/d" + d + "/f" + f, CreateOptions.defaults())
                .thenCompose(TesseraFile::closeAsync));
        if (made.size() >= 64) {
          CompletableFuture.allOf(made.toArray(CompletableFuture[]::new)).join();
          made.clear();
        }
      }
    }
    CompletableFuture.allOf(made.toArray(CompletableFuture[]::new)).join();
    Run ls = run("nfs-ls", "-R", url("/tree"));
    assertThat(ls.code()).as(ls.err()).isZero();
    List<String> files =
        ls.out().lines().filter(l -> l.startsWith("-")).map(l -> l.replaceAll(".* ", "")).toList();
    assertThat(files).hasSize(10_000);
    assertThat(new HashSet<>(ls.out().lines().filter(l -> l.startsWith("-")).toList()))
        .as("no entry listed twice")
        .hasSize(10_000);
  }

  @Test
  void nfsCpCopiesAFileInAndOutByteForByte() throws Exception {
    mine("/copies");
    Path local = Files.createTempFile("nfs-in", ".bin");
    Path back = local.resolveSibling(local.getFileName() + ".back");
    try {
      byte[] data = random(256 << 20, 48);
      Files.write(local, data);
      Run in = run("nfs-cp", local.toString(), url("/copies/big.bin"));
      assertThat(in.code()).as(in.err()).isZero();
      assertThat(fs.stat("/copies/big.bin").size()).isEqualTo(data.length);
      assertThat(Arrays.equals(readTessera("/copies/big.bin"), data))
          .as("what the cluster holds is what nfs-cp sent")
          .isTrue();
      Run out = run("nfs-cp", url("/copies/big.bin"), back.toString());
      assertThat(out.code()).as(out.err()).isZero();
      assertThat(Arrays.equals(Files.readAllBytes(back), data)).isTrue();
    } finally {
      Files.deleteIfExists(local);
      Files.deleteIfExists(back);
    }
  }

  /** A log file through NFS: the gateway's handle is its writer, a COMMIT publishes it. */
  @Test
  void nfsCpWritesAndReadsALogFileLikeAnyOther() throws Exception {
    mine("/nfs-logs");
    fs.mkdir("/nfs-logs", true, CreateOptions.erasure(2, 1).log(true));
    Path local = Files.createTempFile("nfs-log", ".bin");
    Path back = local.resolveSibling(local.getFileName() + ".back");
    try {
      byte[] data = random(20 << 20, 62);
      Files.write(local, data);
      Run in = run("nfs-cp", local.toString(), url("/nfs-logs/ckpt.bin"));
      assertThat(in.code()).as(in.err()).isZero();
      assertThat(fs.stat("/nfs-logs/ckpt.bin").log()).as("a log file").isNotNull();
      assertThat(Arrays.equals(readTessera("/nfs-logs/ckpt.bin"), data))
          .as("what the cluster holds is what nfs-cp sent")
          .isTrue();
      Run out = run("nfs-cp", url("/nfs-logs/ckpt.bin"), back.toString());
      assertThat(out.code()).as(out.err()).isZero();
      assertThat(Arrays.equals(Files.readAllBytes(back), data)).isTrue();
    } finally {
      Files.deleteIfExists(local);
      Files.deleteIfExists(back);
    }
  }

  @Test
  void theGatewaysMetricsPassPromtoolAndCountNfsCalls() throws Exception {
    mine("/metered");
    Run ls = run("nfs-ls", url("/metered"));
    assertThat(ls.code()).as(ls.err()).isZero();
    String text = Promtool.checkedMetrics(plan.metricsUrl(ClusterPlan.NFS_ID));
    assertThat(Promtool.sum(text, "tessera_nfs_requests_total{op=\"readdirplus\",outcome=\"ok\"}"))
        .isGreaterThanOrEqualTo(1);
    assertThat(text).contains("tessera_nfs_request_duration_seconds_bucket{op=\"getattr\"");
  }

  @Test
  void snapshotsAreReadableThroughNfsAndRefuseWrites() throws Exception {
    mine("/snapped");
    writeTessera(
        "/snapped/a.txt", CreateOptions.defaults(), "before".getBytes(StandardCharsets.UTF_8));
    fs.admin().snapshots().create("nightly");
    writeTessera(
        "/snapped/a.txt",
        CreateOptions.defaults().overwrite(true),
        "after".getBytes(StandardCharsets.UTF_8));
    Run old = run("nfs-cat", url("/.snapshots/nightly/snapped/a.txt"));
    assertThat(old.code()).as(old.err()).isZero();
    assertThat(old.out()).isEqualTo("before");
    assertThat(run("nfs-cat", url("/snapped/a.txt")).out()).isEqualTo("after");

    NfsCalls nfs = NfsCalls.mount("/", USER, USER);
    byte[] snapDir =
        nfs.handle(nfs.handle(nfs.handle(nfs.root(), ".snapshots"), "nightly"), "snapped");
    byte[] frozen = nfs.handle(snapDir, "a.txt");
    assertThat(NfsCalls.name(nfs.write(frozen, 0, new byte[] {1}, NfsCalls.FILE_SYNC).getState()))
        .isEqualTo("NFS3ERR_ROFS");
    assertThat(nfs.create(snapDir, "new.txt", NfsCreateMode.GUARDED)).isEqualTo("NFS3ERR_ROFS");
    assertThat(nfs.remove(snapDir, "a.txt")).isEqualTo("NFS3ERR_ROFS");
    assertThat(readTessera("/.snapshots/nightly/snapped/a.txt")).isEqualTo("before".getBytes());

    // every snapshot's root is inode 1: pages of /.snapshots must still follow on
    for (int i = 1; i <= 4; i++) {
      fs.admin().snapshots().create("later-" + i);
    }
    assertThat(nfs.listPlus(nfs.handle(nfs.root(), ".snapshots"), 700))
        .containsExactlyInAnyOrder(
            ".", "..", "nightly", "later-1", "later-2", "later-3", "later-4");
  }

  /** Unlike the HDFS gateway's append-only files: a write in the middle of a 4+2 file. */
  @Test
  void aRandomWriteInTheMiddleOfAnErasureCodedFileKeepsEveryStripeWhole() throws Exception {
    mine("/ec");
    byte[] model = random(3 << 20, 7);
    writeTessera("/ec/f.bin", CreateOptions.erasure(4, 2).stripeUnit(256 << 10), model);
    NfsCalls nfs = NfsCalls.mount("/", USER, USER);
    byte[] f = nfs.handle(nfs.handle(nfs.root(), "ec"), "f.bin");
    byte[] patch = random(300_000, 8);
    long at = 1_000_003;
    assertThat(NfsCalls.name(nfs.writeAll(f, at, patch, NfsCalls.FILE_SYNC).getState()))
        .isEqualTo("NFS3_OK");
    System.arraycopy(patch, 0, model, (int) at, patch.length);
    assertThat(Arrays.equals(readTessera("/ec/f.bin"), model)).isTrue();
    assertThat(Arrays.equals(nfs.readAll(f, model.length), model)).isTrue();
    var check = fs.admin().check("/ec/f.bin", true);
    assertThat(check.parityMismatches()).as("parity matches the new data").isZero();
  }

  @Test
  void truncateRenameOverAndAHandleOfARemovedFileIsStaleNeverAnotherFile() throws Exception {
    mine("/ops");
    writeTessera("/ops/a", CreateOptions.defaults(), random(100_000, 1));
    writeTessera("/ops/b", CreateOptions.defaults(), random(10, 2));
    NfsCalls nfs = NfsCalls.mount("/", USER, USER);
    byte[] dir = nfs.handle(nfs.root(), "ops");
    byte[] a = nfs.handle(dir, "a");
    byte[] b = nfs.handle(dir, "b");
    assertThat(nfs.truncate(a, 5000)).isEqualTo("NFS3_OK");
    assertThat(nfs.size(a)).isEqualTo(5000L);
    assertThat(fs.stat("/ops/a").size()).isEqualTo(5000);
    assertThat(nfs.rename(dir, "a", dir, "b")).isEqualTo("NFS3_OK");
    assertThat(nfs.lookup(dir, "a")).isEqualTo("NFS3ERR_NOENT");
    assertThat(nfs.size(a)).as("the handle follows the renamed file").isEqualTo(5000L);
    assertThat(nfs.getattr(b)).as("the file renamed over is gone").isEqualTo("NFS3ERR_STALE");
    assertThat(nfs.remove(dir, "b")).isEqualTo("NFS3_OK");
    writeTessera("/ops/b", CreateOptions.defaults(), random(10, 3));
    assertThat(nfs.read(a, 0, 10))
        .as("a removed file's handle, its name taken again")
        .isEqualTo("NFS3ERR_STALE");
    mine("/ops/full");
    writeTessera("/ops/full/c", CreateOptions.defaults(), random(10, 4));
    assertThat(nfs.rmdir(dir, "full")).isEqualTo("NFS3ERR_NOTEMPTY");
    assertThat(nfs.rmdir(nfs.root(), "ops"))
        .as("the root directory is root's: others may not remove its entries")
        .isEqualTo("NFS3ERR_ACCES");
  }

  @Test
  void readdirplusPagesThroughABigDirectoryInSmallReplies() throws Exception {
    mine("/big-dir");
    List<CompletableFuture<?>> made = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      made.add(fs.async().mkdir("/big-dir/entry-" + i, false, null));
    }
    CompletableFuture.allOf(made.toArray(CompletableFuture[]::new)).join();
    NfsCalls nfs = NfsCalls.mount("/", USER, USER);
    List<String> names = nfs.listPlus(nfs.handle(nfs.root(), "big-dir"), 8192);
    assertThat(names).hasSize(3002).doesNotHaveDuplicates().contains(".", "..", "entry-2999");
  }

  @Test
  void aGatewayKilledBetweenWriteAndCommitLosesNothingCommittedAndTheClientResends()
      throws Exception {
    mine("/crash");
    NfsCalls nfs = NfsCalls.mount("/", USER, USER);
    byte[] dir = nfs.handle(nfs.root(), "crash");
    assertThat(nfs.create(dir, "f", NfsCreateMode.GUARDED)).isEqualTo("NFS3_OK");
    byte[] f = nfs.handle(dir, "f");
    byte[] committed = random(1 << 20, 11);
    nfs.writeAll(f, 0, committed, NfsCalls.UNSTABLE);
    long before = nfs.commitVerifier(f);
    byte[] pending = random(1 << 20, 12);
    long writeVerifier = nfs.writeAll(f, 1 << 20, pending, NfsCalls.UNSTABLE).getVerf();
    assertThat(writeVerifier).isEqualTo(before);

    cluster.signal(ClusterPlan.NFS_ID, "KILL");
    cluster.restart(ClusterPlan.NFS_ID);
    assertThat(Arrays.equals(readTessera("/crash/f"), committed))
        .as("every committed byte is on the cluster")
        .isTrue();
    long after = nfs.commitVerifier(f);
    assertThat(after).as("a new verifier: the client must resend").isNotEqualTo(writeVerifier);
    nfs.writeAll(f, 1 << 20, pending, NfsCalls.UNSTABLE);
    assertThat(nfs.commitVerifier(f)).isEqualTo(after);
    byte[] both = Arrays.copyOf(committed, 2 << 20);
    System.arraycopy(pending, 0, both, 1 << 20, pending.length);
    assertThat(Arrays.equals(readTessera("/crash/f"), both)).isTrue();
  }

  /**
   * An operator takes a client off an export and restarts the gateway: the client's mount, and
   * every handle it holds, stop working at once, not at its next mount.
   */
  @Test
  void aClientOutsideTheExportIsRefusedAtMountAndAtEveryCallAndRootIsSquashed() throws Exception {
    fs.mkdirs("/shared");
    fs.setMode("/shared", 0777);
    int port = TestPorts.freeBase(2);
    Path exports = plan.dir().resolve("exports-squash.conf");
    Files.writeString(exports, "/ 127.0.0.1(rw,root_squash,insecure)\n");
    portmap.point(port, port);
    try {
      squashedAndRefused(port, exports);
    } finally {
      portmap.point(plan.nfsPort(), plan.mountPort());
    }
  }

  private void squashedAndRefused(int port, Path exports) throws Exception {
    Process squashing = gateway("nfs-2", port, exports);
    byte[] root;
    try {
      NfsCalls asRoot = NfsCalls.mount("/", 0, 0);
      root = asRoot.root();
      byte[] shared = asRoot.handle(root, "shared");
      assertThat(asRoot.mkdir(root, "not-allowed", 0755))
          .as("root acts as nobody in a directory only root may write")
          .isEqualTo("NFS3ERR_ACCES");
      assertThat(asRoot.create(shared, "by-root", NfsCreateMode.GUARDED)).isEqualTo("NFS3_OK");
      assertThat(fs.stat("/shared/by-root").owner()).isEqualTo(new Owner(65534, 65534));
      NfsCalls alice = NfsCalls.mount("/", 1000, 100);
      assertThat(alice.create(shared, "by-alice", NfsCreateMode.GUARDED)).isEqualTo("NFS3_OK");
      FileStatus mine = fs.stat("/shared/by-alice");
      assertThat(mine.owner()).isEqualTo(new Owner(1000, 100));
      NfsCalls bob = NfsCalls.mount("/", 1001, 101);
      byte[] alicesFile = bob.handle(shared, "by-alice");
      assertThat(
              NfsCalls.name(
                  bob.write(alicesFile, 0, new byte[] {1}, NfsCalls.FILE_SYNC).getState()))
          .as("0644 and owned by alice")
          .isEqualTo("NFS3ERR_ACCES");
    } finally {
      stopGateway(squashing);
    }
    Files.writeString(exports, "/ 127.0.0.2(rw)\n");
    Process refusing = gateway("nfs-2", port, exports);
    try {
      Run mount = run("nfs-ls", url("/", port, port));
      assertThat(mount.code()).isNotZero();
      NfsCalls stale = NfsCalls.withRoot(root, 0, 0);
      assertThat(stale.getattr(root)).isEqualTo("NFS3ERR_ACCES");
      assertThat(stale.lookup(root, "shared")).isEqualTo("NFS3ERR_ACCES");
    } finally {
      stopGateway(refusing);
    }
  }

  /**
   * An export without {@code insecure} takes calls from privileged ports only (below 1024, which
   * only root binds on the client's machine): a user's own NFS client on an ordinary port is
   * refused at MOUNT and at every call, root's libnfs tools get in; the default export of {@code
   * tessera local} squashes root.
   */
  @Test
  void aSecureExportRefusesCallsFromUnprivilegedPortsAndTheDefaultSquashesRoot() throws Exception {
    mine("/ports");
    int port = TestPorts.freeBase(2);
    Path exports = plan.dir().resolve("exports-secure.conf");
    Files.writeString(exports, "/ 127.0.0.1(rw)\n");
    Process secure = gateway("nfs-4", port, exports);
    portmap.point(port, port);
    try {
      assertThatThrownBy(() -> NfsCalls.mount("/", USER, USER).root())
          .as("a mount from an unprivileged port")
          .isInstanceOf(Exception.class);
      Run ls = run("nfs-ls", url("/ports", port, port));
      assertThat(ls.code()).as("root's nfs-ls binds a privileged port: %s", ls.err()).isZero();
    } finally {
      portmap.point(plan.nfsPort(), plan.mountPort());
      stopGateway(secure);
    }
    NfsCalls root = NfsCalls.mount("/", 0, 0);
    byte[] dir = root.handle(root.root(), "ports");
    assertThat(root.mkdir(dir, "by-root", 0755))
        .as("root is nobody through the default export, in a directory of user %d", USER)
        .isEqualTo("NFS3ERR_ACCES");
  }

  /**
   * Garbled, cut and lying RPC records, unknown procedures and absurd counts get RPC errors; the
   * gateway keeps serving everyone else, logs no stack trace, and a file committed before is whole.
   */
  @Test
  void mutatedRecordsGetRpcErrorsAndTheGatewayServesOn() throws Exception {
    mine("/fuzz");
    byte[] kept = random(100_000, 99);
    writeTessera("/fuzz/kept.bin", CreateOptions.defaults(), kept);
    writeTessera("/fuzz/scratch.bin", CreateOptions.defaults(), random(10_000, 98));
    NfsCalls nfs = NfsCalls.mount("/", USER, USER);
    byte[] root = nfs.root();
    byte[] dir = nfs.handle(root, "fuzz");
    byte[] scratch = nfs.handle(dir, "scratch.bin");
    List<byte[]> seeds =
        List.of(
            RpcRecords.call(1, RpcRecords.NFS, 3, 0, w -> {}),
            RpcRecords.call(2, RpcRecords.NFS, 3, 1, w -> w.writeOpaque(root)),
            RpcRecords.call(
                3, RpcRecords.NFS, 3, 3, w -> w.writeOpaque(dir).writeString("scratch.bin")),
            RpcRecords.call(
                4, RpcRecords.NFS, 3, 6, w -> w.writeOpaque(scratch).writeHyper(0).writeInt(4096)),
            RpcRecords.call(
                5,
                RpcRecords.NFS,
                3,
                7,
                w ->
                    w.writeOpaque(scratch)
                        .writeHyper(100)
                        .writeInt(16)
                        .writeInt(0)
                        .writeOpaque(new byte[16])),
            RpcRecords.call(
                6,
                RpcRecords.NFS,
                3,
                17,
                w ->
                    w.writeOpaque(dir)
                        .writeHyper(0)
                        .writeFixed(new byte[8])
                        .writeInt(4096)
                        .writeInt(8192)),
            RpcRecords.call(
                7,
                RpcRecords.NFS,
                3,
                2,
                w ->
                    w.writeOpaque(scratch)
                        .writeBool(true)
                        .writeInt(0644)
                        .writeBool(false)
                        .writeBool(false)
                        .writeBool(false)
                        .writeInt(0)
                        .writeInt(0)
                        .writeBool(false)),
            RpcRecords.call(8, RpcRecords.MOUNT, 3, 1, w -> w.writeString("/fuzz")),
            RpcRecords.call(9, RpcRecords.MOUNT, 3, 5, w -> {}));
    Path log = plan.logFile(ClusterPlan.NFS_ID);
    long linesBefore = Files.readAllLines(log).size();
    RpcFuzzer fuzzer =
        new RpcFuzzer(new java.net.InetSocketAddress("127.0.0.1", plan.nfsPort()), seeds, 48);
    fuzzer.run(10_000);

    assertThat(cluster.process(ClusterPlan.NFS_ID).isAlive()).isTrue();
    assertThat(fuzzer.acceptStats)
        .as("answers seen: SUCCESS, PROC_UNAVAIL, GARBAGE_ARGS")
        .containsKeys(0, 3, 4);
    assertThat(run("nfs-ls", url("/fuzz")).out()).contains("kept.bin");
    assertThat(Arrays.equals(readTessera("/fuzz/kept.bin"), kept)).isTrue();
    List<String> newLines = Files.readAllLines(log);
    newLines = newLines.subList((int) linesBefore, newLines.size());
    assertThat(newLines).as("no stack trace").noneMatch(l -> l.startsWith("\tat "));
    assertThat(newLines.size())
        .as(
            "a line every 10 s at most for the "
                + fuzzer.connections
                + " connections the fuzzer opened with "
                + fuzzer.sent
                + " records")
        .isLessThanOrEqualTo(3);
  }

  /**
   * The same operations against the gateway and against nfs-ganesha (VFS on a local directory) give
   * the same statuses, sizes, data and directory contents.
   */
  @Test
  void theGatewayAnswersAsNfsGaneshaDoesToTheSameOperations() throws Exception {
    // ganesha's export lets root be root: so does the gateway the script runs against here
    int port = TestPorts.freeBase(2);
    Path exports = plan.dir().resolve("exports-as-ganesha.conf");
    Files.writeString(exports, "/ 127.0.0.1(rw,no_root_squash,insecure)\n");
    List<String> ours;
    Process likeGanesha = gateway("nfs-3", port, exports);
    portmap.point(port, port);
    try {
      ours = NfsScript.transcript(NfsCalls.mount("/", 0, 0), "diff");
    } finally {
      portmap.point(plan.nfsPort(), plan.mountPort());
      stopGateway(likeGanesha);
    }
    try (GaneshaServer ganesha = new GaneshaServer(plan.dir().resolve("ganesha"))) {
      List<String> cmd =
          ganesha.inside(
              List.of(
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-cp",
                  System.getProperty("java.class.path"),
                  NfsScript.class.getName(),
                  ganesha.export.toString(),
                  "diff"));
      Run theirs = run(cmd.toArray(String[]::new));
      assertThat(theirs.code()).as(theirs.err()).isZero();
      assertThat(ours).containsExactlyElementsOf(theirs.out().lines().toList());
    }
  }

  /** A gateway of its own, started as an operator would: tessera server nfs --exports FILE. */
  static Process gateway(String id, int port, Path exports) throws Exception {
    List<String> cmd = new ArrayList<>(ServerLaunchers.defaults());
    cmd.addAll(
        List.of(
            "server",
            "nfs",
            "--id",
            id,
            "--listen",
            "127.0.0.1:" + port,
            "--exports",
            exports.toString(),
            "--meta",
            plan.metaAddresses(),
            "--credentials",
            ClusterCredentials.server(plan, id, Identity.Role.GATEWAY).toString(),
            "--log",
            plan.logFile(id).toString()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    extraGateways.add(p);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!p.isAlive()) {
        throw new IOException(id + " exited: see " + plan.logFile(id));
      }
      try (Socket s = new Socket("127.0.0.1", port)) {
        return p;
      } catch (IOException notYet) {
        p.waitFor(100, TimeUnit.MILLISECONDS);
      }
    }
    throw new IOException(id + " did not listen within 60 s");
  }

  static void stopGateway(Process p) throws InterruptedException {
    p.destroy();
    p.waitFor(20, TimeUnit.SECONDS);
    extraGateways.remove(p);
  }
}
