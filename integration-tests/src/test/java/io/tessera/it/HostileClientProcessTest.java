package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.ByteString;
import io.netty.buffer.Unpooled;
import io.tessera.ca.CertificateAuthority;
import io.tessera.client.AttributeChange;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ConsoleAdmin;
import io.tessera.common.proto.AccessTokenProto;
import io.tessera.common.proto.AuditAppendRequestProto;
import io.tessera.common.proto.AuditEntryProto;
import io.tessera.common.proto.ConsoleTokenProto;
import io.tessera.common.proto.ConsoleTokenSetRequestProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.HeartbeatResponseProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.LeaderFollowingCaller;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.common.status.TesseraException;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import io.tessera.meta.server.MetaPeer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every attack a stranger or an ordinary user could make on a cluster with nothing but a network
 * connection and perhaps credentials of its own, each refused with nothing changed: talking to any
 * port without a certificate of the cluster, appending to the Raft log, minting or overwriting
 * console tokens, forging the audit log or a data server's heartbeat, reading or overwriting shards
 * without an access token (or with another file's, a forged or a run-out one), touching another
 * user's files, and holding on to connections after being revoked.
 */
class HostileClientProcessTest {
  /** Short-lived tokens, so that one runs out within the test. */
  private static final Duration TOKEN_LIFE = Duration.ofSeconds(3);

  static ClusterPlan plan;
  static ProcessCluster cluster;
  static TesseraFileSystem admin;
  static CertificateAuthority ca;
  static final List<RpcClientPool> pools = new ArrayList<>();
  static final List<TesseraFileSystem> clients = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    plan = new ClusterPlan(TestDirs.fresh("hostile"), 3, 3, TestPorts.freeBase(30));
    cluster =
        ProcessCluster.start(
            plan,
            ServerLaunchers.defaults(),
            List.of("-Dtessera.meta.access-token-lifetime=" + TOKEN_LIFE.toSeconds() + "s"));
    cluster.awaitReady(Duration.ofSeconds(120));
    admin = cluster.connect();
    ca = CertificateAuthority.load(plan.caDir().resolve(CertificateAuthority.KEY_FILE));
    admin.mkdirs("/private");
    admin.setAttributes("/private", AttributeChange.mode(0700));
    admin.mkdirs("/tmp");
    admin.setAttributes("/tmp", AttributeChange.mode(01777));
    try (OutputStream out = admin.create("/private/payroll", CreateOptions.erasure(2, 1))) {
      out.write(bytes(100_000, 1));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    clients.forEach(TesseraFileSystem::close);
    pools.forEach(RpcClientPool::close);
    if (admin != null) {
      admin.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static Credentials user(String name, int uid, boolean isAdmin) throws IOException {
    return ca.issue(
        Identity.user(name, uid, uid, List.of(), isAdmin), Duration.ofDays(1), List.of());
  }

  private static TesseraFileSystem as(Credentials c) throws IOException {
    TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig(), c);
    clients.add(fs);
    return fs;
  }

  private static RpcClientPool pool(TransportSecurity security) {
    RpcClientPool p = new RpcClientPool("hostile", 1, 72 << 20, 10_000, 2000, 5000, security);
    pools.add(p);
    return p;
  }

  /** A meta request sent to the leader over this pool, as a hand-written client would. */
  private static MetaResponseProto meta(RpcClientPool pool, MetaRequestProto req) throws Exception {
    return new LeaderFollowingCaller(
            pool,
            Arrays.asList(plan.metaAddresses().split(",")),
            Service.META,
            Duration.ofSeconds(10))
        .call(
            req.toByteArray(),
            MetaResponseProto::parseFrom,
            r ->
                new LeaderFollowingCaller.Outcome(r.getStatus(), r.getLeaderHint(), r.getMessage()))
        .get(30, TimeUnit.SECONDS);
  }

  private static DataResponseProto data(
      RpcClientPool pool, String server, DataRequestProto req, byte[] payload) throws Exception {
    String address = plan.dataAddress(server);
    Frame f =
        pool.call(
                address,
                Service.DATA,
                req.toByteArray(),
                payload == null ? null : Unpooled.wrappedBuffer(payload))
            .get(30, TimeUnit.SECONDS);
    try {
      return DataResponseProto.parseFrom(f.header());
    } finally {
      f.release();
    }
  }

  private static Throwable cause(ThrowingCall call) {
    try {
      call.run();
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      return e;
    }
  }

  @FunctionalInterface
  interface ThrowingCall {
    void run() throws Exception;
  }

  @Test
  void aStrangerIsDroppedBeforeAnyProtocolOnEveryPort() throws Exception {
    MetaRequestProto mkdir =
        MetaRequestProto.newBuilder()
            .setMkdir(MkdirRequestProto.newBuilder().setPath("/evil"))
            .build();
    MetaResponseProto plain = meta(pool(TransportSecurity.plaintext()), mkdir);
    assertThat(plain.getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(plain.getMessage()).contains("accepts only TLS");

    Path otherDir = Files.createDirectories(plan.dir().resolve("other-cluster"));
    Credentials foreign =
        CertificateAuthority.create(otherDir, "other")
            .issue(Identity.user("admin", 0, 0, List.of(), true), Duration.ofDays(1), List.of());
    Throwable refused = cause(() -> meta(pool(TransportSecurity.tls(foreign)), mkdir));
    assertThat(refused)
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("not authenticated");
    Throwable dataRefused =
        cause(
            () ->
                data(
                    pool(TransportSecurity.tls(foreign)),
                    "ds-1",
                    DataRequestProto.newBuilder()
                        .setDeleteFile(DeleteFileRequestProto.newBuilder().setFileId(1))
                        .build(),
                    null));
    assertThat(dataRefused).hasMessageContaining("not authenticated");

    assertThat(admin.exists("/evil")).isFalse();
  }

  @Test
  void onlyMetaReplicasGetThroughTheRaftPortsHandshake() throws Exception {
    MetaPeer target = plan.metaPeers().get(0);
    for (Credentials c :
        List.of(
            user("bob", 1001, false),
            user("root", 0, true),
            Credentials.load(plan.credentialsFile("ds-1")))) {
      TransportSecurity s = TransportSecurity.tls(c);
      SSLContext tls = SSLContext.getInstance("TLSv1.3");
      tls.init(
          new KeyManager[] {s.keyManager()},
          new TrustManager[] {s.trust(java.util.Set.of(Identity.Role.META))},
          null);
      try (SSLSocket socket =
          (SSLSocket) tls.getSocketFactory().createSocket(target.host(), target.raftPort())) {
        socket.setSoTimeout(10_000);
        Throwable t =
            cause(
                () -> {
                  socket.startHandshake();
                  socket.getOutputStream().write(new byte[] {0, 0, 0, 0, 5, 1, 2, 3, 4, 5});
                  socket.getOutputStream().flush();
                  if (socket.getInputStream().read() >= 0) {
                    throw new AssertionError("the Raft port answered " + c.identity().describe());
                  }
                  throw new IOException("closed");
                });
        assertThat(t)
            .as("%s on the Raft port", c.identity().describe())
            .isInstanceOf(IOException.class);
      }
    }
    assertThat(admin.admin().status().replicas())
        .as("the group still has its three replicas")
        .hasSize(3);
  }

  @Test
  void aUserCannotMintOrOverwriteConsoleTokensNorWriteTheAuditLog() throws Exception {
    RpcClientPool bob = pool(TransportSecurity.tls(user("bob", 1001, false)));
    List<ConsoleAdmin.Token> before = admin.admin().console().tokens();
    ConsoleAdmin.NewToken real = admin.admin().console().createToken("real", true);

    for (String id : List.of("bobsown1", real.token().id())) {
      MetaResponseProto r =
          meta(
              bob,
              MetaRequestProto.newBuilder()
                  .setConsoleTokenSet(
                      ConsoleTokenSetRequestProto.newBuilder()
                          .setToken(
                              ConsoleTokenProto.newBuilder()
                                  .setId(id)
                                  .setName("bob")
                                  .setAdmin(true)
                                  .setSecretSha256(ByteString.copyFrom(new byte[32]))))
                  .build());
      assertThat(r.getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    }
    assertThat(admin.admin().console().tokens()).hasSize(before.size() + 1);
    assertThat(admin.admin().console().tokenSet().verify(real.bearer())).isPresent();

    MetaRequestProto forged =
        MetaRequestProto.newBuilder()
            .setAuditAppend(
                AuditAppendRequestProto.newBuilder()
                    .setEntry(
                        AuditEntryProto.newBuilder()
                            .setWho("admin")
                            .setAction("snapshot.delete")
                            .setResult("ok")
                            .setTimeMs(1)))
            .build();
    assertThat(meta(bob, forged).getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    RpcClientPool anAdmin = pool(TransportSecurity.tls(user("eve", 1002, true)));
    assertThat(meta(anAdmin, forged).getStatus())
        .as("even an admin's client: the meta group writes the log itself")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(admin.admin().console().audit(0, 1000)).noneMatch(e -> e.time().toEpochMilli() == 1);

    TesseraFileSystem bobFs = as(user("bob", 1001, false));
    assertThatThrownBy(() -> bobFs.admin().snapshots().create("bobs"))
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("only admins");
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(admin.admin().console().audit(0, 50))
                    .as("the refusal is audited as bob, from bob's address")
                    .anyMatch(
                        e ->
                            e.who().startsWith("bob")
                                && e.action().equals("snapshot.create")
                                && e.result().startsWith("permission_denied")
                                && e.from().startsWith("127.0.0.1")));
  }

  @Test
  void aForgedHeartbeatCannotPointADataServerElsewhere() throws Exception {
    String before = plan.dataAddress("ds-1");
    HeartbeatRequestProto forged =
        HeartbeatRequestProto.newBuilder()
            .setServerId("ds-1")
            .setAddress("127.0.0.1:1")
            .setCapacityBytes(1)
            .build();
    for (Credentials c :
        List.of(user("bob", 1001, true), Credentials.load(plan.credentialsFile("ds-2")))) {
      HeartbeatResponseProto r =
          new LeaderFollowingCaller(
                  pool(TransportSecurity.tls(c)),
                  Arrays.asList(plan.metaAddresses().split(",")),
                  Service.HEARTBEAT,
                  Duration.ofSeconds(10))
              .call(
                  forged.toByteArray(),
                  HeartbeatResponseProto::parseFrom,
                  x ->
                      new LeaderFollowingCaller.Outcome(
                          x.getStatus(), x.getLeaderHint(), x.getMessage()))
              .get(30, TimeUnit.SECONDS);
      assertThat(r.getStatus())
          .as(c.identity().describe())
          .isEqualTo(StatusProto.PERMISSION_DENIED);
    }
    assertThat(admin.admin().status().dataServers())
        .filteredOn(d -> d.id().equals("ds-1"))
        .extracting(d -> d.address())
        .containsExactly(before);
  }

  @Test
  void shardsAreServedOnlyWithAnUnexpiredTokenForThatFileAndRight() throws Exception {
    TesseraFile payroll = admin.openFile("/private/payroll");
    long fileId = payroll.fileId();
    String server = payroll.layout().servers().get(0);
    ShardRangeProto unit0 =
        ShardRangeProto.newBuilder()
            .setFileId(fileId)
            .setStripe(0)
            .setUnit(0)
            .setLength(4096)
            .build();
    Credentials bobCreds = user("bob", 1001, false);
    RpcClientPool bob = pool(TransportSecurity.tls(bobCreds));
    DataRequestProto.Builder read =
        DataRequestProto.newBuilder().setRead(ReadShardsRequestProto.newBuilder().addRanges(unit0));
    DataRequestProto.Builder overwrite =
        DataRequestProto.newBuilder()
            .setWrite(
                WriteShardsRequestProto.newBuilder()
                    .addRanges(unit0.toBuilder().setCoversUnit(false)));

    assertThat(data(bob, server, read.build(), null).getStatus())
        .isEqualTo(StatusProto.TOKEN_EXPIRED);
    assertThat(data(bob, server, overwrite.build(), new byte[4096]).getStatus())
        .isEqualTo(StatusProto.TOKEN_EXPIRED);

    // bob's own file gives bob a genuine token, for that file only
    TesseraFileSystem bobFs = as(bobCreds);
    try (OutputStream out = bobFs.create("/tmp/bobs", CreateOptions.defaults())) {
      out.write(1);
    }
    MetaResponseProto bobsOpen =
        meta(
            bob,
            MetaRequestProto.newBuilder()
                .setGetAttr(GetAttrRequestProto.newBuilder().setPath("/tmp/bobs"))
                .build());
    AccessTokenProto bobsToken = bobsOpen.getToken();
    assertThat(bobsToken.getMac()).isNotEmpty();
    AccessTokenProto relabelled = bobsToken.toBuilder().setFileId(fileId).build();
    assertThat(data(bob, server, read.clone().addTokens(bobsToken).build(), null).getStatus())
        .as("another file's token")
        .isEqualTo(StatusProto.TOKEN_EXPIRED);
    assertThat(data(bob, server, read.clone().addTokens(relabelled).build(), null).getStatus())
        .as("a token relabelled with this file")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    AccessTokenProto forged =
        relabelled.toBuilder().setMac(ByteString.copyFrom(bytes(32, 9))).build();
    assertThat(
            data(bob, server, overwrite.clone().addTokens(forged).build(), new byte[4096])
                .getStatus())
        .as("a forged token")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(
            data(
                    bob,
                    server,
                    DataRequestProto.newBuilder()
                        .setDeleteFile(DeleteFileRequestProto.newBuilder().setFileId(fileId))
                        .build(),
                    null)
                .getStatus())
        .isEqualTo(StatusProto.PERMISSION_DENIED);

    // a genuine token runs out: the data servers refuse it, the client asks for a new one
    ShardRangeProto bobsUnit =
        ShardRangeProto.newBuilder().setFileId(bobsOpen.getInode().getId()).setLength(1).build();
    DataRequestProto bobsRead =
        DataRequestProto.newBuilder()
            .addTokens(bobsToken)
            .setRead(ReadShardsRequestProto.newBuilder().addRanges(bobsUnit))
            .build();
    String bobsServer = bobsOpen.getInode().getLayout().getServers(0);
    await()
        .atMost(TOKEN_LIFE.plusSeconds(10))
        .until(
            () -> data(bob, bobsServer, bobsRead, null).getStatus() == StatusProto.TOKEN_EXPIRED);

    byte[] back = new byte[100_000];
    payroll.readFully(0, back, 0, back.length);
    assertThat(back).as("nothing bob sent changed the payroll").isEqualTo(bytes(100_000, 1));
    try (InputStream in = bobFs.open("/tmp/bobs")) {
      assertThat(in.readAllBytes()).as("bob's client renews its tokens as it goes").hasSize(1);
    }
  }

  @Test
  void usersKeepToTheirOwnFiles() throws Exception {
    TesseraFileSystem alice = as(user("alice", 1000, false));
    TesseraFileSystem bob = as(user("bob", 1001, false));
    try (OutputStream out = alice.create("/tmp/alices", CreateOptions.defaults())) {
      out.write(bytes(10, 2));
    }

    assertThatThrownBy(() -> bob.delete("/tmp/alices", false))
        .isInstanceOf(TesseraException.class)
        .matches(e -> ((TesseraException) e).status() == StatusProto.PERMISSION_DENIED);
    assertThatThrownBy(() -> bob.setAttributes("/tmp/alices", AttributeChange.mode(0666)))
        .hasMessageContaining("permission denied");
    assertThatThrownBy(() -> bob.open("/private/payroll").read())
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("permission denied");

    assertThat(alice.stat("/tmp/alices").mode()).isEqualTo(0644);
    try (InputStream in = alice.open("/tmp/alices")) {
      assertThat(in.readAllBytes()).isEqualTo(bytes(10, 2));
    }
  }

  @Test
  void aRevokedUserLosesItsOpenConnectionsWithinFiveSeconds() throws Exception {
    TesseraFileSystem carol = as(user("carol", 1003, false));
    try (OutputStream out = carol.create("/tmp/carols", CreateOptions.defaults())) {
      out.write(bytes(1000, 3));
    }
    TesseraFile open = carol.openFile("/tmp/carols");
    byte[] buf = new byte[1000];
    open.readFully(0, buf, 0, buf.length);

    long revoked = System.nanoTime();
    admin.admin().credentials().revoke("carol", false);

    await()
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              try {
                carol.stat("/tmp");
                return false;
              } catch (TesseraException e) {
                return e.status() == StatusProto.PERMISSION_DENIED;
              }
            });
    await()
        .atMost(Duration.ofSeconds(5).minusNanos(System.nanoTime() - revoked))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              try {
                open.readFully(0, buf, 0, buf.length);
                return false;
              } catch (IOException e) {
                return true;
              }
            });
    assertThat(admin.stat("/tmp/carols").size()).as("her file stays").isEqualTo(1000);
    TesseraFileSystem newCarol = as(user("carol", 1003, false));
    assertThat(newCarol.stat("/tmp/carols").size())
        .as("credentials issued after the revocation work")
        .isEqualTo(1000);
  }
}
