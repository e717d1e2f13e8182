package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tessera.cli.Tessera;
import io.tessera.client.AttributeChange;
import io.tessera.client.CreateOptions;
import io.tessera.client.FileStatus;
import io.tessera.client.Owner;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.config.Config;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.HeartbeatResponseProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.TransportSecurity;
import io.tessera.common.status.TesseraException;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceView;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client API against a whole cluster in this JVM: 3 meta replicas, 4 data servers. */
class MiniClusterTest {
  @TempDir static Path dir;
  static InProcessCluster cluster;
  static TesseraFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    ClusterPlan plan = new ClusterPlan(dir, 3, 4, TestPorts.freeBase(30));
    cluster =
        InProcessCluster.start(
            plan,
            Config.of(
                Map.of(
                    "tessera.meta.snapshot-every",
                    "50",
                    "tessera.meta.log-purge-gap",
                    "5",
                    "tessera.meta.log-segment-size",
                    "16K")));
    cluster.awaitReady(Duration.ofSeconds(60));
    fs = TesseraFileSystem.connect(plan.clientConfig());
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

  @Test
  void aFailedCallThrowsFromTheCallersOwnStackWithTheNetworkThreadsFailureAsItsCause() {
    assertThatThrownBy(() -> fs.createFile("/no-such-dir/f", CreateOptions.defaults()))
        .isInstanceOf(TesseraException.NotFoundException.class)
        .satisfies(
            e -> {
              assertThat(e.getStackTrace())
                  .as("the frames of the exception a user catches")
                  .anyMatch(
                      f ->
                          f.getMethodName()
                              .equals(
                                  "aFailedCallThrowsFromTheCallersOwnStackWithTheNetworkThreadsFailureAsItsCause"));
              assertThat(e.getCause())
                  .as("the failure as the answer brought it")
                  .isInstanceOf(TesseraException.NotFoundException.class)
                  .hasMessage(e.getMessage());
            });
  }

  @Test
  void randomWritesTruncatesAndReadsMatchAnInMemoryModel() throws Exception {
    Random rnd = new Random(2026);
    CreateOptions[] layouts = {
      CreateOptions.striped(1).stripeUnit(4096),
      CreateOptions.striped(3).stripeUnit(4096),
      CreateOptions.striped(4).stripeUnit(65536),
      CreateOptions.striped(2).stripeUnit(1 << 20)
    };
    fs.mkdirs("/model");
    for (int l = 0; l < layouts.length; l++) {
      ModelFile.exercise(fs, "/model/f" + l, layouts[l], rnd, 60);
    }
  }

  @Test
  void streamsAndChannelsSeeTheSameBytes() throws Exception {
    byte[] data = new byte[10_000_003];
    new Random(5).nextBytes(data);
    try (OutputStream out = fs.create("/streams.bin", CreateOptions.striped(3).stripeUnit(65536))) {
      int pos = 0;
      Random chunks = new Random(6);
      while (pos < data.length) {
        int n = Math.min(data.length - pos, chunks.nextInt(300_000) + 1);
        out.write(data, pos, n);
        pos += n;
      }
    }
    try (InputStream in = fs.open("/streams.bin")) {
      assertThat(in.readAllBytes()).isEqualTo(data);
    }
    try (SeekableByteChannel ch = fs.openFile("/streams.bin").newByteChannel()) {
      assertThat(ch.size()).isEqualTo(data.length);
      ByteBuffer b = ByteBuffer.allocate(1000);
      ch.position(7_777_777).read(b);
      assertThat(b.array()).isEqualTo(Arrays.copyOfRange(data, 7_777_777, 7_778_777));
      ch.position(data.length);
      assertThat(ch.read(ByteBuffer.allocate(10))).as("at the end").isEqualTo(-1);
    }
  }

  @Test
  void namespaceOperationsBehaveAsAUserExpects() throws Exception {
    fs.mkdirs("/ns/a/b");
    fs.createFile("/ns/a/b/f", CreateOptions.defaults()).write(0, new byte[] {1, 2, 3}, 0, 3);
    assertThat(fs.list("/ns/a")).extracting(FileStatus::name).containsExactly("b");
    FileStatus f = fs.stat("/ns/a/b/f");
    assertThat(f.size()).isEqualTo(3);
    assertThat(f.layout().toString())
        .as("the default on four servers survives losing one")
        .startsWith("RS 2+1");
    assertThat(f.layout().servers()).doesNotHaveDuplicates().hasSize(3);
    fs.rename("/ns/a", "/ns/c");
    assertThat(fs.exists("/ns/a/b/f")).isFalse();
    assertThat(fs.stat("/ns/c/b/f").fileId()).isEqualTo(f.fileId());
    assertThatThrownBy(() -> fs.stat("/ns/nope"))
        .isInstanceOf(TesseraException.NotFoundException.class)
        .hasMessageContaining("/ns/nope");
    assertThatThrownBy(() -> fs.createFile("/ns/c/b/f", CreateOptions.defaults()))
        .isInstanceOf(TesseraException.AlreadyExistsException.class);
    assertThatThrownBy(() -> fs.delete("/ns/c", false))
        .isInstanceOf(TesseraException.class)
        .satisfies(
            e -> assertThat(((TesseraException) e).status()).isEqualTo(StatusProto.NOT_EMPTY));
    assertThatThrownBy(() -> fs.createFile("/ns/wide", CreateOptions.striped(9)))
        .satisfies(e -> assertThat(((TesseraException) e).status()).isEqualTo(StatusProto.NO_SPACE))
        .hasMessageContaining("needs 9 data servers; the cluster has 4");
    assertThatThrownBy(() -> fs.createFile("/ns/odd", CreateOptions.striped(2).stripeUnit(5000)))
        .hasMessageContaining("power of two");
    assertThat(fs.setMode("/ns/c/b/f", 0600).mode()).isEqualTo(0600);
    Instant when = Instant.parse("2020-01-02T03:04:05Z");
    assertThat(fs.setModified("/ns/c/b/f", when).modified()).isEqualTo(when);
    assertThat(fs.stat("/ns/c/b/f").mode()).isEqualTo(0600);
    TesseraFile synced = fs.openFile("/ns/c/b/f");
    synced.write(3, new byte[] {4}, 0, 1);
    synced.sync();
    assertThat(fs.stat("/ns/c/b/f").size()).isEqualTo(4);
    fs.delete("/ns", true);
    assertThat(fs.exists("/ns")).isFalse();
  }

  @Test
  void directoryLayoutsAreInheritedByNewFiles() throws Exception {
    fs.mkdirs("/inherit", CreateOptions.striped(2).stripeUnit(8192));
    fs.createFile("/inherit/x", CreateOptions.defaults()).close();
    assertThat(fs.stat("/inherit/x").layout().dataUnits()).isEqualTo(2);
    assertThat(fs.stat("/inherit/x").layout().stripeUnit()).isEqualTo(8192);
    fs.createFile("/inherit/y", CreateOptions.striped(3)).close();
    assertThat(fs.stat("/inherit/y").layout().dataUnits())
        .as("an explicit policy wins")
        .isEqualTo(3);
  }

  @Test
  void removedFilesAreDeletedFromTheDataServersInTheBackground() throws Exception {
    TesseraFile f = fs.createFile("/reclaim.bin", CreateOptions.striped(4).stripeUnit(4096));
    f.write(0, new byte[100_000], 0, 100_000);
    fs.delete("/reclaim.bin", false);
    await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () -> {
              String leader = cluster.leader();
              return leader != null
                  && cluster.meta(leader).namespace().pendingReclaims(100).isEmpty();
            });
  }

  @Test
  void removingADirectoryOfManyFilesFreesTheirShardsOnEveryDataServer() throws Exception {
    fs.mkdirs("/many");
    Set<String> ids = new HashSet<>();
    byte[] data = new byte[4 * 32 * 1024]; // one 32 KiB unit per server: each is a value file
    new Random(11).nextBytes(data);
    for (int i = 0; i < 300; i++) { // more than one delete request's worth per server
      TesseraFile f = fs.createFile("/many/f" + i, CreateOptions.striped(4).stripeUnit(32 * 1024));
      f.write(0, data, 0, data.length);
      ids.add(Long.toString(fs.stat("/many/f" + i).fileId()));
    }
    assertThat(valueFilesOf(ids)).as("written").isEqualTo(4 * 300);

    fs.delete("/many", true);

    await().atMost(Duration.ofSeconds(30)).until(() -> valueFilesOf(ids) == 0);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () -> {
              String leader = cluster.leader();
              return leader != null
                  && cluster.meta(leader).namespace().pendingReclaims(10).isEmpty();
            });
  }

  /**
   * A program still writing a file that someone removed must not leave shards behind that no
   * reclaim would ever delete: once the data servers dropped the file, its next write fails with a
   * message naming the removal, and nothing of it stays on disk.
   */
  @Test
  void aWriterStillHoldingARemovedFileIsRefusedOnceItIsReclaimedAndLeavesNoShards()
      throws Exception {
    byte[] data = new byte[4 * 32 * 1024]; // one 32 KiB unit per server: each is a value file
    new Random(12).nextBytes(data);
    try (TesseraFile f =
        fs.createFile("/removed-while-open.bin", CreateOptions.striped(4).stripeUnit(32 * 1024))) {
      f.write(0, data, 0, data.length);
      Set<String> id = Set.of(Long.toString(fs.stat("/removed-while-open.bin").fileId()));
      assertThat(valueFilesOf(id)).as("written").isEqualTo(4);

      fs.delete("/removed-while-open.bin", false);
      await().atMost(Duration.ofSeconds(30)).until(() -> valueFilesOf(id) == 0);

      assertThatThrownBy(() -> f.write(0, data, 0, data.length))
          .as("a write after the file was reclaimed")
          .hasMessageContaining("was removed");
      assertThat(valueFilesOf(id))
          .as("value files of the removed file after the late write")
          .isZero();
    }
  }

  /**
   * An operator who removed files while a data server was away sees them counted in `cluster
   * status` until that server is back and has deleted their shards too.
   */
  @Test
  void removedFilesWaitForADataServerThatIsAwayAndClusterStatusCountsThem() throws Exception {
    await().atMost(Duration.ofSeconds(30)).until(() -> fs.admin().status().filesToReclaim() == 0);
    fs.mkdirs("/away");
    for (int i = 0; i < 5; i++) {
      try (TesseraFile f =
          fs.createFile("/away/f" + i, CreateOptions.striped(4).stripeUnit(4096))) {
        f.write(0, new byte[20_000], 0, 20_000);
      }
    }
    String away = cluster.plan().dataIds().get(3);
    cluster.stopData(away);
    try {
      fs.delete("/away", true);
      assertThat(fs.admin().status().filesToReclaim())
          .as("removed while %s is away", away)
          .isEqualTo(5);
    } finally {
      cluster.startData(away);
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> fs.admin().status().filesToReclaim() == 0);
  }

  /**
   * Value files of the given files on every data server (named {@code
   * <fileId>.<stripe>.<unit>...}). The servers delete them while this walks: a file gone before it
   * is looked at is not counted.
   */
  private static long valueFilesOf(Set<String> fileIds) throws IOException {
    long[] n = {0};
    for (String server : cluster.plan().dataIds()) {
      Files.walkFileTree(
          cluster.plan().dataDir(server),
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
              if (attrs.isRegularFile()
                  && f.getParent().getParent().endsWith("values")
                  && fileIds.contains(f.getFileName().toString().split("\\.")[0])) {
                n[0]++;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // deleted while walked
              }
              throw e;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
              return e == null ? FileVisitResult.CONTINUE : visitFileFailed(d, e);
            }
          });
    }
    return n[0];
  }

  @Test
  void aFollowerThatMissedManyChangesCatchesUpFromACheckpoint() throws Exception {
    String leader = cluster.leader();
    String follower =
        List.of("m1", "m2", "m3").stream()
            .filter(id -> !id.equals(leader))
            .findFirst()
            .orElseThrow();
    cluster.stopMeta(follower);
    fs.mkdirs("/catchup");
    fs.createFile("/catchup/before-snapshot", CreateOptions.defaults()).close();
    fs.admin().snapshots().create("while-a-follower-was-away");
    for (int i = 0; i < 300; i++) {
      fs.createFile("/catchup/f" + i, CreateOptions.defaults()).close();
    }
    cluster.startMeta(follower);
    // while it installs the checkpoint its store answers "unavailable, retry"
    await()
        .atMost(Duration.ofSeconds(60))
        .ignoreExceptionsInstanceOf(NamespaceException.class)
        .until(
            () -> {
              NamespaceView ns = cluster.meta(follower).namespace();
              long dirId = ns.child(NamespaceView.ROOT_ID, "catchup");
              return dirId != 0 && ns.child(dirId, "f299") != 0;
            });
    assertThat(cluster.meta(follower).checkpointsInstalled())
        .as("the log it missed was purged, so it caught up from the leader's checkpoint")
        .isPositive();
    // the snapshot's namespace came with the checkpoint: this replica can serve it as leader
    assertThat(
            cluster
                .meta(follower)
                .snapshotAttr("/.snapshots/while-a-follower-was-away/catchup/before-snapshot")
                .getStatus())
        .isEqualTo(StatusProto.OK);
    assertThat(
            cluster
                .meta(follower)
                .snapshotAttr("/.snapshots/while-a-follower-was-away/catchup/f0")
                .getStatus())
        .as("created after the snapshot")
        .isEqualTo(StatusProto.NOT_FOUND);
  }

  @Test
  void clientsRideThroughALeaderChangeWithoutErrors() throws Exception {
    fs.mkdirs("/failover");
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger created = new AtomicInteger();
    Thread writer =
        new Thread(
            () -> {
              try {
                while (!stop.get()) {
                  fs.createFile("/failover/f" + created.get(), CreateOptions.defaults()).close();
                  created.incrementAndGet();
                }
              } catch (Exception e) {
                throw new AssertionError("a create failed during the leader change", e);
              }
            });
    AtomicBoolean failed = new AtomicBoolean();
    writer.setUncaughtExceptionHandler((t, e) -> failed.set(true));
    writer.start();
    await().until(() -> created.get() > 20);
    String leader = cluster.leader();
    cluster.stopMeta(leader);
    int before = created.get();
    await().atMost(Duration.ofSeconds(30)).until(() -> created.get() > before + 20 || failed.get());
    stop.set(true);
    writer.join();
    assertThat(failed).as("no create failed").isFalse();
    assertThat(fs.list("/failover")).hasSize(created.get());
    cluster.startMeta(leader);
  }

  @Test
  void heartbeatsOfAnIdleClusterKeepEveryServerUpWithoutGrowingTheMetaLog() throws Exception {
    // nothing else changes the namespace meanwhile: earlier tests' removed files are reclaimed
    await().atMost(Duration.ofSeconds(60)).until(() -> fs.admin().status().filesToReclaim() == 0);
    String leader = cluster.leader();
    long before = cluster.meta(leader).namespace().appliedIndex();
    long window = 4_000; // 4 heartbeat intervals: 16 heartbeats from the 4 data servers
    long start = System.nanoTime();
    await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> System.nanoTime() - start > window * 1_000_000);
    ClusterStatus status = fs.admin().status();
    assertThat(status.dataServers())
        .allSatisfy(
            d -> {
              assertThat(d.up()).as(d.id() + " up").isTrue();
              assertThat(d.lastHeartbeatMillisAgo()).as(d.id() + " heard lately").isLessThan(2_500);
            });
    assertThat(cluster.leader()).as("no election meanwhile").isEqualTo(leader);
    assertThat(cluster.meta(leader).namespace().appliedIndex() - before)
        .as("log entries while 4 data servers sent about 16 heartbeats that changed nothing")
        .isLessThan(4);
  }

  @Test
  void aStreamThatLostAWriteSaysSoAndKeepsSayingSo() throws Exception {
    TesseraFile f = fs.createFile("/lost.bin", CreateOptions.striped(4).stripeUnit(4096));
    cluster.stopData("ds-4");
    try {
      OutputStream out = f.newOutputStream(0);
      byte[] chunk = new byte[1 << 20];
      IOException first =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              () -> {
                for (int i = 0; i < 64; i++) {
                  out.write(chunk);
                }
                out.close();
              },
              IOException.class);
      assertThat(first)
          .as("with m = 0 a missing server fails the write")
          .isNotNull()
          .hasMessageContaining("ds-4");
      assertThatThrownBy(() -> out.write(chunk))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("were not stored");
      assertThatThrownBy(out::close).isInstanceOf(IOException.class);
    } finally {
      cluster.startData("ds-4");
      cluster.awaitReady(Duration.ofSeconds(60));
    }
  }

  @Test
  void aMetaServerFedGarbageKeepsServingOtherClients() throws Exception {
    fs.mkdirs("/garbage-proof");
    Random rnd = new Random(11);
    for (var peer : cluster.plan().metaPeers()) {
      for (int i = 0; i < 20; i++) {
        try (Socket s = new Socket(peer.host(), peer.clientPort())) {
          byte[] junk = new byte[rnd.nextInt(2000) + 1];
          rnd.nextBytes(junk);
          if (i % 4 == 0) {
            ByteBuffer.wrap(junk).putInt(0, junk.length + 500); // a frame that never finishes
          }
          s.getOutputStream().write(junk);
        }
      }
    }
    // malformed requests from an authenticated caller: refused with a reason, nobody else hurt
    try (var pool =
        new RpcClientPool(
            "garbage",
            1,
            1 << 20,
            5000,
            2000,
            5000,
            TransportSecurity.tls(Credentials.load(cluster.plan().adminCredentials())))) {
      for (var peer : cluster.plan().metaPeers()) {
        var reply =
            pool.call(peer.clientAddress(), Service.META, new byte[] {(byte) 0xff, 0x01}, null)
                .get();
        var meta = MetaResponseProto.parseFrom(reply.header());
        reply.release();
        assertThat(meta.getStatus()).isIn(StatusProto.INVALID_ARGUMENT);
        var hb =
            pool.call(
                    peer.clientAddress(),
                    Service.HEARTBEAT,
                    HeartbeatRequestProto.newBuilder()
                        .setServerId("bad id!")
                        .setAddress("x")
                        .build()
                        .toByteArray(),
                    null)
                .get();
        assertThat(HeartbeatResponseProto.parseFrom(hb.header()).getStatus())
            .isEqualTo(StatusProto.INVALID_ARGUMENT);
        hb.release();
      }
    }
    assertThat(fs.stat("/garbage-proof").directory()).isTrue();
    assertThat(fs.admin().status().dataServers()).as("no bogus server registered").hasSize(4);
  }

  @Test
  void theCliPrintsOneClearLineAndAnExitCodeScriptsCanTrust(@TempDir Path local) throws Exception {
    String meta = cluster.plan().metaAddresses();
    Cli missing = Cli.run("fs", "ls", "/no/such/dir", "--meta", meta);
    assertThat(missing.code).isEqualTo(1);
    assertThat(missing.err.strip().lines())
        .singleElement()
        .asString()
        .startsWith("tessera: ")
        .contains("/no/such");

    String admin = cluster.plan().adminCredentials().toString();
    Cli unreachable =
        Cli.run(
            "fs", "ls", "/", "--meta", "127.0.0.1:1", "--timeout", "1s", "--credentials", admin);
    assertThat(unreachable.code).isEqualTo(3);
    assertThat(unreachable.err.strip().lines())
        .singleElement()
        .asString()
        .contains("is the cluster running");

    Cli stranger = Cli.run("fs", "ls", "/", "--meta", "127.0.0.1:1", "--timeout", "1s");
    assertThat(stranger.code).as("no credentials anywhere").isEqualTo(5);
    assertThat(stranger.err.strip().lines()).singleElement().asString().contains("--credentials");

    Cli badLayout = Cli.run("fs", "mkdir", "--ec", "4x2", "/x", "--meta", meta);
    assertThat(badLayout.code).isEqualTo(2);
    assertThat(badLayout.err.strip().lines()).singleElement().asString().contains("K+M");

    Path src = local.resolve("in.bin");
    byte[] data = new byte[3_000_000];
    new Random(3).nextBytes(data);
    Files.write(src, data);
    assertThat(
            Cli.run("fs", "put", "-q", "--sync", src.toString(), "/cli/deep/in.bin", "--meta", meta)
                .code)
        .isZero();
    Cli ls = Cli.run("fs", "ls", "--json", "/cli/deep", "--meta", meta);
    assertThat(ls.out).contains("\"size\" : 3000000");
    Cli longLs = Cli.run("fs", "ls", "-l", "/cli/deep", "--meta", meta);
    assertThat(longLs.out.strip().lines())
        .as("ls -l shows the mode as ls does")
        .singleElement()
        .asString()
        .startsWith("-rw-r--r-- ")
        .contains(" 3000000 ")
        .endsWith(" in.bin");
    Path dst = local.resolve("out.bin");
    assertThat(
            Cli.run(
                    "fs",
                    "get",
                    "-q",
                    "-Dtessera.client.read-chunk=64K",
                    "-Dtessera.client.reads-ahead=2",
                    "/cli/deep/in.bin",
                    dst.toString(),
                    "--meta",
                    meta)
                .code)
        .isZero();
    assertThat(Files.readAllBytes(dst)).isEqualTo(data);
    Cli typo =
        Cli.run(
            "fs",
            "get",
            "-q",
            "-Dtessera.client.read-chunks=64K",
            "/cli/deep/in.bin",
            dst.toString(),
            "--meta",
            meta);
    assertThat(typo.code).as("a setting no client reads is refused, not ignored").isEqualTo(2);
    assertThat(typo.err.strip().lines())
        .singleElement()
        .asString()
        .contains("-Dtessera.client.read-chunks is not a " + "client setting");
    Cli badValue = Cli.run("fs", "ls", "-Dtessera.client.reads-ahead=many", "/", "--meta", meta);
    assertThat(badValue.code).isEqualTo(2);
    assertThat(badValue.err.strip().lines())
        .singleElement()
        .asString()
        .contains("tessera.client.reads-ahead=many");
    Cli again = Cli.run("fs", "put", "-q", src.toString(), "/cli/deep/in.bin", "--meta", meta);
    assertThat(again.code).as("refuses to overwrite without -f").isEqualTo(1);
    assertThat(again.err).contains("already exists");
    assertThat(Cli.run("fs", "mv", "/cli/deep", "/cli/moved", "--meta", meta).code).isZero();
    assertThat(Cli.run("fs", "rm", "-r", "/cli", "--meta", meta).code).isZero();
    assertThat(fs.exists("/cli")).isFalse();
  }

  /**
   * "fs put --stripe-unit 64K" without --ec gave the directory's layout with a 1 MiB unit, invalid
   * units (0, 3, 1000) were accepted, and a directory made with a stripe unit alone defaulted to
   * 1+0.
   */
  @Test
  void aStripeUnitAloneKeepsTheDirectorysKPlusMAndIsCheckedEverywhere(@TempDir Path local)
      throws Exception {
    fs.mkdirs("/unit", CreateOptions.erasure(2, 1));
    try (TesseraFile f = fs.createFile("/unit/f", CreateOptions.defaults().stripeUnit(65536))) {
      assertThat(f.layout().toString()).isEqualTo("RS 2+1, unit 64 KiB");
    }
    assertThat(fs.mkdirs("/unit/sub", CreateOptions.defaults().stripeUnit(8192)).defaultLayout())
        .hasToString("RS 2+1, unit 8 KiB");
    assertThatThrownBy(() -> fs.createFile("/unit/g", CreateOptions.defaults().stripeUnit(3)))
        .hasMessageContaining("stripe unit 3 must be a power of two");

    String meta = cluster.plan().metaAddresses();
    Path small = Files.write(local.resolve("small.bin"), new byte[] {1, 2, 3});
    Cli put =
        Cli.run(
            "fs", "put", "--stripe-unit", "64K", small.toString(), "/unit/cli.bin", "--meta", meta);
    assertThat(put.code).as(put.err).isZero();
    assertThat(fs.stat("/unit/cli.bin").layout().toString()).isEqualTo("RS 2+1, unit 64 KiB");
    for (String bad : List.of("0", "3", "1000", "128M")) {
      for (String command : List.of("put", "mkdir")) {
        Cli refused =
            command.equals("put")
                ? Cli.run(
                    "fs", "put", "--stripe-unit", bad, small.toString(), "/unit/x", "--meta", meta)
                : Cli.run("fs", "mkdir", "--stripe-unit", bad, "/unit/x", "--meta", meta);
        assertThat(refused.code)
            .as("fs %s --stripe-unit %s: %s", command, bad, refused.err)
            .isEqualTo(2);
        assertThat(refused.err).contains("--stripe-unit " + bad + ": stripe unit");
      }
    }
    assertThat(fs.exists("/unit/x")).isFalse();
  }

  /** ls -l showed no owner or group, -R was an unknown option, and -a / hid .snapshots. */
  @Test
  void lsShowsOwnersListsTreesAndShowsTheSnapshotsDirectoryWithAll() throws Exception {
    String meta = cluster.plan().metaAddresses();
    fs.mkdirs("/lsr/a/b");
    fs.createFile("/lsr/a/b/f", CreateOptions.defaults()).close();
    fs.setAttributes("/lsr/a/b/f", AttributeChange.owner(1000, 100));
    Cli longLs = Cli.run("fs", "ls", "-l", "/lsr/a/b", "--meta", meta);
    assertThat(longLs.out.strip()).startsWith("-rw-r--r--  1000   100 ").endsWith(" f");

    Cli tree = Cli.run("fs", "ls", "-R", "/lsr", "--meta", meta);
    assertThat(tree.code).as(tree.err).isZero();
    assertThat(tree.out).isEqualTo("/lsr:\na/\n\n/lsr/a:\nb/\n\n/lsr/a/b:\nf\n");

    fs.admin().snapshots().create("ls-a");
    assertThat(Cli.run("fs", "ls", "-a", "/", "--meta", meta).out.lines())
        .contains(".snapshots/", "lsr/");
    assertThat(Cli.run("fs", "ls", "/", "--meta", meta).out.lines())
        .contains("lsr/")
        .doesNotContain(".snapshots/");
  }

  /**
   * A tree restore deleted a file created after the snapshot and said only "1 entry removed". It
   * now names what it would remove and, from a script, changes nothing without --yes.
   */
  @Test
  void aTreeRestoreNamesWhatItWouldRemoveAndWaitsForYes() throws Exception {
    String meta = cluster.plan().metaAddresses();
    fs.mkdirs("/restore-cli");
    try (OutputStream out = fs.create("/restore-cli/kept", CreateOptions.defaults())) {
      out.write(1);
    }
    fs.admin().snapshots().create("restore-cli");
    try (OutputStream out = fs.create("/restore-cli/written-since", CreateOptions.defaults())) {
      out.write(2);
    }

    Cli dry =
        Cli.run("snapshot", "restore", "--dry-run", "restore-cli", "/restore-cli", "--meta", meta);
    assertThat(dry.code).as(dry.err).isZero();
    assertThat(dry.out)
        .contains("would copy 0 file(s)", "leave 1 unchanged", "remove 1 entry")
        .contains("- /restore-cli/written-since");

    Cli unconfirmed = Cli.run("snapshot", "restore", "restore-cli", "/restore-cli", "--meta", meta);
    assertThat(unconfirmed.code).isEqualTo(2);
    assertThat(unconfirmed.err)
        .contains("removes 1 entry created since the snapshot", "/restore-cli/written-since")
        .contains("add --yes");
    assertThat(fs.exists("/restore-cli/written-since")).as("nothing changed").isTrue();

    Cli confirmed =
        Cli.run("snapshot", "restore", "--yes", "restore-cli", "/restore-cli", "--meta", meta);
    assertThat(confirmed.code).as(confirmed.err).isZero();
    assertThat(confirmed.out).contains("1 entry removed", "removed /restore-cli/written-since");
    assertThat(fs.exists("/restore-cli/written-since")).isFalse();
    Cli diff = Cli.run("snapshot", "diff", "restore-cli", "--meta", meta);
    assertThat(diff.out).contains("0 change(s) from restore-cli to the live file system");
    fs.admin().snapshots().delete("restore-cli");
  }

  /** fs put printed a name's newline raw, where ls escapes it: one report became two lines. */
  @Test
  void putAndGetReportANameWithANewlineAsLsShowsIt(@TempDir Path local) throws Exception {
    String meta = cluster.plan().metaAddresses();
    Path small = Files.write(local.resolve("small.bin"), new byte[] {1, 2, 3});
    Cli put = Cli.run("fs", "put", small.toString(), "/odd/two\nlines", "--meta", meta);
    assertThat(put.code).as(put.err).isZero();
    assertThat(put.err).contains("put /odd/two\\nlines ").doesNotContain("two\nlines");
    Cli get =
        Cli.run(
            "fs", "get", "/odd/two\nlines", local.resolve("back.bin").toString(), "--meta", meta);
    assertThat(get.code).as(get.err).isZero();
    assertThat(get.err).contains("get /odd/two\\nlines ").doesNotContain("two\nlines");
  }

  @Test
  void putReadsAPipeWhoseLengthIsNotKnownInAdvanceAndRefusesADirectoryWithWhatToDo(
      @TempDir Path local) throws Exception {
    String meta = cluster.plan().metaAddresses();
    Path fifo = local.resolve("stream");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    byte[] data = new byte[5_000_000];
    new Random(4).nextBytes(data);
    // the writer end, as `tar c dir | tessera fs put - PATH` or a process substitution would be
    CompletableFuture<Void> writer =
        CompletableFuture.runAsync(
            () -> {
              try {
                Files.write(fifo, data);
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    Cli put = Cli.run("fs", "put", fifo.toString(), "/piped/stream.bin", "--meta", meta);
    writer.get(30, TimeUnit.SECONDS);
    assertThat(put.code).as(put.err).isZero();
    assertThat(put.err).contains("put /piped/stream.bin 4.8 MiB");
    try (TesseraFile f = fs.openFile("/piped/stream.bin")) {
      byte[] got = new byte[(int) f.size()];
      f.readFully(0, got, 0, got.length);
      assertThat(got).isEqualTo(data);
    }
    Cli dir = Cli.run("fs", "put", local.toString(), "/piped/dir", "--meta", meta);
    assertThat(dir.code).isEqualTo(2);
    assertThat(dir.err.strip().lines())
        .singleElement()
        .asString()
        .contains("is a directory", "-r copies it");
    assertThat(fs.exists("/piped/dir")).isFalse();
  }

  /**
   * 200 small files took 200 puts, each a JVM start of its own (1.56 s apiece). A tree is one put
   * and one get: the same files, bytes and directories come back, links are skipped and said so, a
   * put's copy in flight is not fetched, and a second put without -f stops at the first file that
   * exists.
   */
  @Test
  void aTreeOfSmallFilesIsOnePutAndOneGet(@TempDir Path local) throws Exception {
    String meta = cluster.plan().metaAddresses();
    Path tree = Files.createDirectories(local.resolve("results"));
    Files.createDirectories(tree.resolve("run-1/logs"));
    Files.createDirectories(tree.resolve("empty"));
    Random random = new Random(5);
    Map<String, byte[]> written = new java.util.TreeMap<>();
    for (int i = 0; i < 60; i++) {
      String name = (i % 3 == 0 ? "run-1/" : i % 5 == 0 ? "run-1/logs/" : "") + "part-" + i;
      byte[] data = new byte[i == 7 ? 300_000 : i == 8 ? 0 : random.nextInt(5000)];
      random.nextBytes(data);
      Files.write(tree.resolve(name), data);
      written.put(name, data);
    }
    Files.createSymbolicLink(tree.resolve("latest"), tree.resolve("run-1"));

    Cli put = Cli.run("fs", "put", "-r", tree.toString(), "/trees", "--meta", meta);

    assertThat(put.code).as(put.err).isZero();
    assertThat(put.err)
        .contains("put /trees ", "60 files, 3 directories below it")
        .contains("skipped 1 that are neither files nor directories");
    assertThat(fs.exists("/trees/latest")).as("a link is not followed").isFalse();
    assertThat(fs.stat("/trees/empty").directory()).isTrue();
    try (OutputStream inFlight =
        fs.create("/trees/.part-9.tessera-part-4242", CreateOptions.defaults())) {
      inFlight.write(1);
    }

    Path back = Files.createDirectories(local.resolve("back"));
    Cli get = Cli.run("fs", "get", "-r", "/trees", back.toString(), "--meta", meta);

    assertThat(get.code).as(get.err).isZero();
    assertThat(get.err).contains("get /trees ", "60 files, 3 directories below it");
    for (Map.Entry<String, byte[]> e : written.entrySet()) {
      assertThat(back.resolve("trees").resolve(e.getKey())).hasBinaryContent(e.getValue());
    }
    assertThat(back.resolve("trees/empty")).isEmptyDirectory();
    assertThat(back.resolve("trees/.part-9.tessera-part-4242")).doesNotExist();

    // into an existing directory, as cp -r: /trees/run-1, which the first put made
    Cli again =
        Cli.run("fs", "put", "-r", tree.resolve("run-1").toString(), "/trees", "--meta", meta);
    assertThat(again.code).as(again.err).isEqualTo(1);
    assertThat(again.err).contains("already exists (--overwrite replaces it)", "put -r stopped");
    Cli notRecursive = Cli.run("fs", "get", "/trees", back.toString(), "--meta", meta);
    assertThat(notRecursive.code).isEqualTo(2);
    assertThat(notRecursive.err).contains("/trees is a directory: -r copies it");
  }

  @Test
  void anInterruptedPutLeavesTheFileItWouldReplaceWholeAndNoHalfWrittenFile(@TempDir Path local)
      throws Exception {
    byte[] old = new byte[3_000_000];
    new Random(7).nextBytes(old);
    fs.mkdirs("/interrupted");
    try (TesseraFile f = fs.createFile("/interrupted/data.bin", CreateOptions.defaults())) {
      f.write(0, old, 0, old.length);
    }
    Path fifo = local.resolve("stream");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    // a put of its own process, replacing the file, fed from a pipe that never ends
    Process put =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Tessera.class.getName(),
                "fs",
                "put",
                "--overwrite",
                "--quiet",
                fifo.toString(),
                "/interrupted/data.bin",
                "--meta",
                cluster.plan().metaAddresses(),
                "--credentials",
                cluster.plan().adminCredentials().toString())
            .redirectErrorStream(true)
            .redirectOutput(local.resolve("put.log").toFile())
            .start();
    try (OutputStream pipe = Files.newOutputStream(fifo)) {
      byte[] chunk = new byte[1 << 20];
      new Random(8).nextBytes(chunk);
      for (int i = 0; i < 20; i++) {
        pipe.write(chunk); // 20 MiB: more than two output-stream buffers went to the data servers
      }
      pipe.flush();
      await().atMost(Duration.ofSeconds(30)).until(() -> names("/interrupted").size() == 2);
      // stopped while the pipe is still open: SIGTERM runs the same shutdown as Ctrl-C (SIGINT
      // itself may be ignored by a process started in the background, as CI jobs can be)
      assertThat(new ProcessBuilder("kill", "-TERM", String.valueOf(put.pid())).start().waitFor())
          .isZero();
      assertThat(put.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } catch (IOException brokenPipe) {
      // the put went away while we were writing: the assertions below say whether that was right
    } finally {
      put.destroyForcibly();
    }
    assertThat(put.exitValue()).as(Files.readString(local.resolve("put.log"))).isNotZero();
    assertThat(names("/interrupted"))
        .as("the hidden partial file is removed")
        .containsExactly("data.bin");
    try (TesseraFile f = fs.openFile("/interrupted/data.bin")) {
      byte[] got = new byte[(int) f.size()];
      f.readFully(0, got, 0, got.length);
      assertThat(got).as("the file the put would have replaced is untouched").isEqualTo(old);
    }
  }

  /**
   * A SIGKILLed `fs put` runs no shutdown hook: its hidden .NAME.tessera-part-PID stayed, and
   * showed in `fs ls`, forever. The copy now lives on a lease the put renews; once the put is gone
   * and the lease runs out, the cluster removes it. Until then `fs ls` shows it only with -a.
   */
  @Test
  void aKilledPutsPartialCopyIsHiddenAndRemovedByTheClusterOnceItsLeaseRunsOut(@TempDir Path local)
      throws Exception {
    String meta = cluster.plan().metaAddresses();
    fs.mkdirs("/killed-put");
    Path fifo = local.resolve("stream");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    Process put =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Tessera.class.getName(),
                "fs",
                "put",
                "--quiet",
                "-Dtessera.client.partial-lease=3s",
                fifo.toString(),
                "/killed-put/data.bin",
                "--meta",
                meta,
                "--credentials",
                cluster.plan().adminCredentials().toString())
            .redirectErrorStream(true)
            .redirectOutput(local.resolve("put.log").toFile())
            .start();
    try (OutputStream pipe = Files.newOutputStream(fifo)) {
      pipe.write(new byte[1 << 20]);
      pipe.flush();
      await().atMost(Duration.ofSeconds(30)).until(() -> names("/killed-put").size() == 1);
      signal(put, "KILL");
      assertThat(put.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } catch (IOException brokenPipe) {
      // the put went away while we were writing
    } finally {
      put.destroyForcibly();
    }
    String partial = names("/killed-put").get(0);
    assertThat(partial).startsWith(".data.bin.tessera-part-");
    assertThat(Cli.run("fs", "ls", "/killed-put", "--meta", meta).out)
        .as("hidden from ls")
        .isEmpty();
    assertThat(Cli.run("fs", "ls", "-a", "/killed-put", "--meta", meta).out.strip())
        .isEqualTo(partial);
    await("the cluster removes the dead put's copy")
        .atMost(Duration.ofSeconds(30))
        .until(() -> names("/killed-put").isEmpty());
  }

  @Test
  void putIntoADirectoryKeepsTheLocalNameAndRefusesAnExistingFileWithoutOverwrite(
      @TempDir Path local) throws Exception {
    String meta = cluster.plan().metaAddresses();
    Path file = local.resolve("report.txt");
    Files.writeString(file, "first");
    fs.mkdirs("/reports");
    Cli first = Cli.run("fs", "put", "-q", file.toString(), "/reports/", "--meta", meta);
    assertThat(first.code).as(first.err).isZero();
    Files.writeString(file, "second");
    Cli again = Cli.run("fs", "put", "-q", file.toString(), "/reports", "--meta", meta);
    assertThat(again.code).isEqualTo(1);
    assertThat(again.err).contains("/reports/report.txt already exists", "--overwrite");
    assertThat(
            Cli.run("fs", "put", "-q", "--overwrite", file.toString(), "/reports", "--meta", meta)
                .code)
        .isZero();
    assertThat(names("/reports")).containsExactly("report.txt");
    try (InputStream in = fs.open("/reports/report.txt")) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("second");
    }
    Cli mvNoClobber =
        Cli.run("fs", "mv", "-n", "/reports/report.txt", "/reports/report.txt.bak", "--meta", meta);
    assertThat(mvNoClobber.code).isZero();
    fs.createFile("/reports/report.txt", CreateOptions.defaults()).close();
    Cli refused =
        Cli.run(
            "fs",
            "mv",
            "--no-clobber",
            "/reports/report.txt",
            "/reports/report.txt.bak",
            "--meta",
            meta);
    assertThat(refused.code).isEqualTo(1);
    assertThat(refused.err).contains("/reports/report.txt.bak already exists");
    assertThat(fs.stat("/reports/report.txt.bak").size()).as("the target is kept").isEqualTo(6);
  }

  /**
   * Files carry an owner and a group (NFS clients check them): the creator's by default, changed
   * with chown, chgrp and chmod, and a bad id or mode is a usage error that changes nothing.
   */
  @Test
  void ownersAndModesChangeThroughTheCliAndBadValuesChangeNothing() throws Exception {
    String meta = cluster.plan().metaAddresses();
    fs.mkdirs("/owned");
    fs.createFile("/owned/f", CreateOptions.defaults().owner(new Owner(1000, 100))).close();
    assertThat(fs.stat("/owned/f").owner()).isEqualTo(new Owner(1000, 100));
    assertThat(fs.stat("/owned").owner()).as("the creating process").isEqualTo(Owner.process());
    assertThat(Cli.run("fs", "chown", "2000:200", "/owned/f", "/owned", "--meta", meta).code)
        .isZero();
    assertThat(Cli.run("fs", "chgrp", "300", "/owned/f", "--meta", meta).code).isZero();
    assertThat(Cli.run("fs", "chmod", "0640", "/owned/f", "--meta", meta).code).isZero();
    FileStatus f = fs.stat("/owned/f");
    assertThat(f.owner()).isEqualTo(new Owner(2000, 300));
    assertThat(f.mode()).isEqualTo(0640);
    assertThat(fs.stat("/owned").owner()).isEqualTo(new Owner(2000, 200));
    Cli badMode = Cli.run("fs", "chmod", "rw-r", "/owned/f", "--meta", meta);
    assertThat(badMode.code).isEqualTo(2);
    assertThat(badMode.err).contains("not octal permission bits");
    Cli badOwner = Cli.run("fs", "chown", "alice", "/owned/f", "--meta", meta);
    assertThat(badOwner.code).isEqualTo(2);
    assertThat(badOwner.err).contains("is not a number");
    assertThat(fs.stat("/owned/f").owner()).isEqualTo(new Owner(2000, 300));
    assertThat(Cli.run("fs", "stat", "/owned/f", "--meta", meta).out).contains("Owner: 2000:300");
  }

  /**
   * A user's trial: SIGTERM during `fs get` left 444 MB of NAME.tessera-part behind; get replaced
   * an existing local file silently; get into a missing directory printed only the temporary path.
   */
  @Test
  void getRefusesToReplaceAFileSaysWhatIsMissingAndLeavesNothingWhenInterrupted(@TempDir Path local)
      throws Exception {
    String meta = cluster.plan().metaAddresses();
    byte[] data = new byte[32 << 20];
    new Random(11).nextBytes(data);
    fs.mkdirs("/got");
    try (TesseraFile f = fs.createFile("/got/big.bin", CreateOptions.defaults())) {
      f.write(0, data, 0, data.length);
    }
    Path existing = local.resolve("big.bin");
    Files.writeString(existing, "mine");
    Cli refused = Cli.run("fs", "get", "-q", "/got/big.bin", existing.toString(), "--meta", meta);
    assertThat(refused.code).isEqualTo(1);
    assertThat(refused.err.strip()).contains(existing + " already exists", "--overwrite");
    assertThat(Files.readString(existing)).isEqualTo("mine");
    Cli missing =
        Cli.run(
            "fs",
            "get",
            "-q",
            "/got/big.bin",
            local.resolve("no/such/dir/x").toString(),
            "--meta",
            meta);
    assertThat(missing.code).isEqualTo(1);
    assertThat(missing.err.strip().lines())
        .singleElement()
        .asString()
        .contains("no such local directory " + local.resolve("no/such/dir"))
        .doesNotContain(".tessera-part");

    Path target = local.resolve("copy.bin");
    Path part = local.resolve("copy.bin.tessera-part");
    Process get =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-cp",
                System.getProperty("java.class.path"),
                Tessera.class.getName(),
                "fs",
                "get",
                "-q",
                "/got/big.bin",
                target.toString(),
                "--meta",
                meta,
                "--credentials",
                cluster.plan().adminCredentials().toString())
            .redirectErrorStream(true)
            .redirectOutput(local.resolve("get.log").toFile())
            .start();
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(5))
          .until(() -> Files.exists(part) || !get.isAlive());
      // held still mid-copy, then stopped as Ctrl-C would (SIGTERM runs the same shutdown)
      signal(get, "STOP");
      boolean midCopy = Files.exists(part) && !Files.exists(target);
      signal(get, "TERM");
      signal(get, "CONT");
      assertThat(get.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(midCopy)
          .as("the get was stopped half-way (%s)", Files.readString(local.resolve("get.log")))
          .isTrue();
    } finally {
      get.destroyForcibly();
    }
    assertThat(part).as("the partial copy is removed").doesNotExist();
    if (Files.exists(target)) {
      assertThat(Files.size(target))
          .as("a copy that got into place is whole")
          .isEqualTo(data.length);
    }
  }

  /**
   * `fs ls` showed a name with a newline as two files, printed several directories with no headers,
   * and listed a killed put's hidden partial copy; a 255-byte name could not be put.
   */
  @Test
  void lsShowsEachEntryOnOneLineHeadsEachDirectoryAndHidesDotNamesUnlessAsked(@TempDir Path local)
      throws Exception {
    String meta = cluster.plan().metaAddresses();
    fs.mkdirs("/names/a", CreateOptions.erasure(2, 1).stripeUnit(64 << 10));
    fs.mkdirs("/names/b");
    fs.createFile("/names/a/two\nlines", CreateOptions.defaults()).close();
    fs.createFile("/names/a/.hidden", CreateOptions.defaults()).close();
    fs.createFile("/names/b/tab\there", CreateOptions.defaults()).close();

    Cli ls = Cli.run("fs", "ls", "/names/a", "/names/b", "--meta", meta);
    assertThat(ls.code).as(ls.err).isZero();
    assertThat(ls.out.lines().toList())
        .containsExactly("/names/a:", "two\\nlines", "", "/names/b:", "tab\\there");
    Cli all = Cli.run("fs", "ls", "-a", "/names/a", "--meta", meta);
    assertThat(all.out.lines().toList()).containsExactly(".hidden", "two\\nlines");
    Cli json = Cli.run("fs", "ls", "--json", "/names/a", "--meta", meta);
    assertThat(json.out).as("--json keeps names exact").contains("two\\nlines");
    Cli dir = Cli.run("fs", "ls", "-ld", "/names/a", "--meta", meta);
    assertThat(dir.out.strip())
        .as("a directory's default layout")
        .startsWith("drwx")
        .contains(" 2+1/64KiB ")
        .endsWith("/names/a/");

    String longest = "n".repeat(255);
    Path file = local.resolve("x");
    Files.writeString(file, "fits");
    Cli put = Cli.run("fs", "put", "-q", file.toString(), "/names/" + longest, "--meta", meta);
    assertThat(put.code).as(put.err).isZero();
    assertThat(fs.stat("/names/" + longest).size()).isEqualTo(4);
  }

  /** Reading a file without parity with one of its servers down exited 3, "cluster unreachable". */
  @Test
  void dataThatCannotBeReadWithAServerDownHasAnExitCodeOfItsOwn(@TempDir Path local)
      throws Exception {
    String meta = cluster.plan().metaAddresses();
    byte[] data = new byte[1 << 20];
    new Random(21).nextBytes(data);
    String server;
    try (TesseraFile f =
        fs.createFile("/unreadable.bin", CreateOptions.striped(2).stripeUnit(64 << 10))) {
      f.write(0, data, 0, data.length);
      server = f.layout().servers().get(1);
    }
    cluster.stopData(server);
    try {
      Cli get =
          Cli.run(
              "fs",
              "get",
              "-q",
              "/unreadable.bin",
              local.resolve("out").toString(),
              "--meta",
              meta);
      assertThat(get.code).as(get.err).isEqualTo(Tessera.EXIT_UNREADABLE);
      assertThat(get.err.strip().lines()).singleElement().asString().contains("no parity", server);
      Cli ls = Cli.run("fs", "ls", "/", "--meta", meta);
      assertThat(ls.code).as("the cluster itself answers").isZero();
    } finally {
      cluster.startData(server);
    }
  }

  /**
   * `bench meta --files 2000` ran four untimed warm-up passes of 10,000 files; `bench ior` run as
   * root dropped the whole machine's page cache unasked.
   */
  @Test
  void benchmarksSizeTheirWarmUpByTheRunAndLeaveTheMachinesPageCacheAlone() {
    String meta = cluster.plan().metaAddresses();
    Cli metaBench =
        Cli.run(
            "bench",
            "meta",
            "--threads",
            "2",
            "--files",
            "200",
            "--warmup-passes",
            "1",
            "--meta",
            meta);
    assertThat(metaBench.code).as(metaBench.err).isZero();
    assertThat(metaBench.out).contains("1 pass(es) of 200 files");
    Cli ior =
        Cli.run(
            "bench",
            "ior",
            "--block",
            "1M",
            "--transfer",
            "256K",
            "--warmup-passes",
            "1",
            "--meta",
            meta);
    assertThat(ior.code).as(ior.err).isZero();
    assertThat(ior.out).contains("read").doesNotContain("page cache dropped");
  }

  /**
   * N-1 strided, LANL's checkpoint pattern: three writers interleave 47,001-byte records in one RS
   * 4+2 file (every record straddles stripe units, writers meet in every stripe), and every byte
   * reads back where its writer put it.
   */
  @Test
  void benchIorStridedInterleavesTheClientsInOneFileAndVerifiesEveryByte() {
    String meta = cluster.plan().metaAddresses();
    Cli ior =
        Cli.run(
            "bench",
            "ior",
            "--strided",
            "--clients",
            "3",
            "--transfer",
            "47001",
            "--block",
            "500000",
            "--ec",
            "2+1",
            "--stripe-unit",
            "16K",
            "--warmup",
            "0",
            "--dir",
            "/bench/strided",
            "--meta",
            meta);
    assertThat(ior.code).as(ior.err).isZero();
    assertThat(ior.out)
        .contains("3 client(s)", "shared file, strided", "RS 2+1")
        .contains("block: 10 whole transfers of 47001 bytes")
        .contains("verified: every byte");

    Cli both = Cli.run("bench", "ior", "--strided", "--file-per-client", "--meta", meta);
    assertThat(both.code).isEqualTo(2);
    assertThat(both.err).contains("--strided").contains("--file-per-client");
  }

  /**
   * mdtest's shape: client processes of threads, in one shared directory and in a directory per
   * thread, creates, stats and removes; every phase's files found by the next, nothing left.
   */
  @Test
  void benchMetaRunsClientProcessesInASharedDirectoryAndOnePerThreadAndCleansUp() throws Exception {
    String meta = cluster.plan().metaAddresses();
    Cli bench =
        Cli.run(
            "bench",
            "meta",
            "--clients",
            "2",
            "--threads",
            "2",
            "--files",
            "120",
            "--warmup",
            "0",
            "--dir",
            "/mdtest",
            "--meta",
            meta);
    assertThat(bench.code).as(bench.err).isZero();
    for (String phase : List.of("creates", "stats", "removes")) {
      assertThat(bench.out)
          .containsPattern(phase + ": +\\d+ ops/s \\(120 files, 4 threads in 2 clients, ")
          .containsPattern(
              phase
                  + ", a directory per thread: +\\d+ ops/s \\(120 files, 4 threads in 2 clients,"
                  + " a directory each, ");
    }
    assertThat(fs.list("/mdtest")).isEmpty();
  }

  /**
   * `fs mkdir --ec 6+3 /results` on a smaller cluster was accepted, then every put into it failed;
   * `fs stat DIR` showed no default layout.
   */
  @Test
  void aDirectoryDefaultNoFileCouldHaveIsRefusedUnlessForcedAndStatShowsIt() throws Exception {
    String meta = cluster.plan().metaAddresses();
    Cli wide = Cli.run("fs", "mkdir", "--ec", "6+3", "/too-wide", "--meta", meta);
    assertThat(wide.code).isEqualTo(1);
    assertThat(wide.err.strip().lines())
        .singleElement()
        .asString()
        .contains("layout 6+3 needs 9 data servers and the cluster has 4", "--force");
    assertThat(fs.exists("/too-wide")).isFalse();
    Cli forced = Cli.run("fs", "mkdir", "--ec", "6+3", "--force", "/for-later", "--meta", meta);
    assertThat(forced.code).as(forced.err).isZero();
    Cli fits =
        Cli.run("fs", "mkdir", "--ec", "3+1", "--stripe-unit", "64K", "/fits", "--meta", meta);
    assertThat(fits.code).as(fits.err).isZero();
    Cli stat = Cli.run("fs", "stat", "/fits", "--meta", meta);
    assertThat(stat.out).contains("Layout: RS 3+1, unit 64 KiB (default for new files)");
    fs.mkdirs("/fits/deeper/still");
    try (TesseraFile f = fs.createFile("/fits/deeper/still/f", CreateOptions.defaults())) {
      assertThat(f.layout().toString())
          .as("inherited from the nearest directory with a default")
          .isEqualTo("RS 3+1, unit 64 KiB");
    }
  }

  /**
   * A new k+m file needed k+m live servers: on four servers with one dead, no 2+2 file could be
   * created. It is now created on the three live ones and the dead one, stale there from the start,
   * and rebuilt there when it returns.
   */
  @Test
  void aFileCreatedWhileAServerIsDownIsWrittenAroundItAndRebuiltWhenItReturns() throws Exception {
    String down = cluster.plan().dataIds().get(3);
    cluster.stopData(down);
    byte[] data = new byte[300_000];
    new Random(31).nextBytes(data);
    try {
      await("meta finds " + down + " down")
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  fs.admin().status().dataServers().stream()
                      .anyMatch(d -> d.id().equals(down) && !d.up()));
      try (TesseraFile f =
          fs.createFile("/born-degraded", CreateOptions.erasure(2, 2).stripeUnit(16 << 10))) {
        assertThat(f.layout().servers()).contains(down);
        assertThat(f.staleServers()).containsExactly(down);
        f.write(0, data, 0, data.length);
      }
      assertThat(readBack("/born-degraded", data.length)).isEqualTo(data);
    } finally {
      cluster.startData(down);
    }
    await("recovery rebuilds " + down + "'s units")
        .atMost(Duration.ofSeconds(60))
        .until(() -> fs.stat("/born-degraded").staleServers().isEmpty());
    await("fsck finds every unit")
        .atMost(Duration.ofSeconds(30))
        .until(() -> fs.admin().check("/born-degraded", true).verdict().equals("HEALTHY"));
    assertThat(readBack("/born-degraded", data.length)).isEqualTo(data);
  }

  /**
   * With 6+0 files, `recover status` said "Every shard is fully redundant" and fsck HEALTHY,
   * nothing more.
   */
  @Test
  void filesWithoutParityAreNeverCountedAsRedundant() throws Exception {
    String meta = cluster.plan().metaAddresses();
    fs.createFile("/bare.bin", CreateOptions.striped(2)).close();
    Cli status = Cli.run("recover", "status", "--meta", meta);
    assertThat(status.out)
        .contains("file(s) have no parity (layout K+0): not redundant by layout")
        .doesNotContain("Every shard is fully redundant.");
    Cli fsck = Cli.run("fsck", "/bare.bin", "--meta", meta);
    assertThat(fsck.out).contains("not redundant by layout (no parity)", "1 without parity");
    fs.delete("/bare.bin", false);
  }

  private static byte[] readBack(String path, int size) throws Exception {
    byte[] got = new byte[size];
    try (TesseraFile f = fs.openFile(path)) {
      f.readFully(0, got, 0, size);
    }
    return got;
  }

  private static void signal(Process p, String signal) throws Exception {
    assertThat(new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).start().waitFor())
        .isZero();
  }

  private List<String> names(String dir) throws IOException {
    return fs.list(dir).stream().map(FileStatus::name).sorted().toList();
  }

  /**
   * One CLI invocation's exit code and output; a command given the cluster's --meta acts as its
   * administrator.
   */
  private record Cli(int code, String out, String err) {
    static Cli run(String... args) {
      List<String> all = new ArrayList<>(List.of(args));
      ClusterPlan plan = cluster.plan();
      if (all.contains("--meta") && all.contains(plan.metaAddresses())) {
        all.addAll(List.of("--credentials", plan.adminCredentials().toString()));
      }
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code =
          Tessera.run(
              new PrintWriter(out, true), new PrintWriter(err, true), all.toArray(String[]::new));
      return new Cli(code, out.toString(), err.toString());
    }
  }
}
