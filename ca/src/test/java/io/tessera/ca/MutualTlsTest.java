package io.tessera.ca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RevocationProto;
import io.tessera.common.proto.RevocationsProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nobody talks to a port without a certificate of the cluster: the server learns who each caller is
 * from its certificate, strangers and other clusters are dropped in the handshake, a user's
 * certificate cannot pose as a server, and a revocation closes the connections already open.
 */
class MutualTlsTest {
  @TempDir Path dir;
  private CertificateAuthority ca;
  private RpcServer server;
  private TransportSecurity serverSecurity;
  private final List<Identity> seen = new CopyOnWriteArrayList<>();
  private final List<RpcClientPool> pools = new CopyOnWriteArrayList<>();

  @BeforeEach
  void startServer() throws Exception {
    ca = CertificateAuthority.create(dir, "test");
    serverSecurity =
        TransportSecurity.tls(
            ca.issue(Identity.server("m1", Identity.Role.META), Duration.ofDays(1), List.of()));
    server =
        RpcServer.start(
            "meta-m1",
            new InetSocketAddress("127.0.0.1", 0),
            Map.of(Service.META, new RecordingService()),
            RpcServer.Limits.of(1 << 20, 1),
            serverSecurity);
  }

  @AfterEach
  void stop() {
    pools.forEach(RpcClientPool::close);
    server.close();
  }

  private final class RecordingService implements RpcService {
    @Override
    public CompletableFuture<RpcReply> handle(RpcCall call) {
      call.payload().release();
      seen.add(call.identity());
      return CompletableFuture.completedFuture(
          RpcReply.of(MetaResponseProto.newBuilder().setMessage("hello").build()));
    }

    @Override
    public RpcReply errorReply(Throwable cause) {
      StatusProto s = cause instanceof TesseraException te ? te.status() : StatusProto.INTERNAL;
      return RpcReply.of(
          MetaResponseProto.newBuilder().setStatus(s).setMessage(cause.getMessage()).build());
    }
  }

  private RpcClientPool pool(TransportSecurity security) {
    RpcClientPool p = new RpcClientPool("test", 1, 1 << 20, 5000, 2000, 5000, security);
    pools.add(p);
    return p;
  }

  private MetaResponseProto call(RpcClientPool pool) throws Exception {
    Frame f =
        pool.call("127.0.0.1:" + server.port(), Service.META, new byte[0], Unpooled.EMPTY_BUFFER)
            .get(10, TimeUnit.SECONDS);
    try {
      return MetaResponseProto.parseFrom(f.header());
    } finally {
      f.release();
    }
  }

  private Credentials bob() throws IOException {
    return ca.issue(
        Identity.user("bob", 1001, 1001, List.of(100, 200), false), Duration.ofDays(1), List.of());
  }

  @Test
  void theServerLearnsWhoCallsFromTheCertificateNotFromTheRequest() throws Exception {
    assertThat(call(pool(TransportSecurity.tls(bob()))).getMessage()).isEqualTo("hello");

    Identity who = seen.get(0);
    assertThat(who.name()).isEqualTo("bob");
    assertThat(who.uid()).isEqualTo(1001);
    assertThat(who.groups()).containsExactly(100, 200);
    assertThat(who.admin()).isFalse();
    assertThat(who.isServer()).isFalse();
  }

  @Test
  void credentialsSurviveTheirFileAndTheFileIsTheOwnersAlone() throws Exception {
    Path file = dir.resolve("bob.credentials");
    bob().write(file);

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(call(pool(TransportSecurity.tls(Credentials.load(file)))).getMessage())
        .isEqualTo("hello");
    assertThatThrownBy(() -> Credentials.load(Path.of("/dev/null")))
        .hasMessageContaining("holds 0 certificates");
  }

  @Test
  void aClientOfAnotherClusterIsDroppedInTheHandshake() throws Exception {
    Path other = Files.createDirectory(dir.resolve("other"));
    Credentials stranger =
        CertificateAuthority.create(other, "other")
            .issue(
                Identity.user("bob", 1001, 1001, List.of(), true), Duration.ofDays(1), List.of());

    assertThatThrownBy(() -> call(pool(TransportSecurity.tls(stranger))))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(TesseraException.class)
        .hasMessageContaining("not authenticated");
    assertThat(seen).isEmpty();
  }

  @Test
  void aPlaintextCallerIsToldThePortWantsTlsAndNothingReachesTheService() throws Exception {
    MetaResponseProto r = call(pool(TransportSecurity.plaintext()));

    assertThat(r.getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(r.getMessage()).contains("accepts only TLS");
    assertThat(seen).isEmpty();
  }

  @Test
  void garbageOnThePortIsDroppedWithoutAnAnswer() throws Exception {
    byte[] http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes();
    byte[] twoGibFrame = {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    for (byte[] garbage : List.of(http, twoGibFrame)) {
      try (Socket s = new Socket("127.0.0.1", server.port())) {
        s.getOutputStream().write(garbage);
        s.setSoTimeout(5000);
        assertThat(s.getInputStream().read()).isEqualTo(-1);
      }
    }
    assertThat(seen).isEmpty();
  }

  @Test
  void aUsersCertificateCannotPoseAsAServer() throws Exception {
    TransportSecurity bobAsServer = TransportSecurity.tls(bob());
    RpcServer fake =
        RpcServer.start(
            "fake",
            new InetSocketAddress("127.0.0.1", 0),
            Map.of(Service.META, new RecordingService()),
            RpcServer.Limits.of(1 << 20, 1),
            bobAsServer);
    try {
      RpcClientPool alice =
          pool(
              TransportSecurity.tls(
                  ca.issue(
                      Identity.user("alice", 1002, 1002, List.of(), false),
                      Duration.ofDays(1),
                      List.of())));
      assertThatThrownBy(
              () ->
                  alice
                      .call("127.0.0.1:" + fake.port(), Service.META, new byte[0], null)
                      .get(10, TimeUnit.SECONDS))
          .cause()
          .hasMessageContaining("not authenticated");
    } finally {
      fake.close();
    }
    assertThat(seen).isEmpty();
  }

  @Test
  void aRevokedUserLosesTheConnectionItHoldsOpenAndCannotComeBack() throws Exception {
    RpcClientPool bob = pool(TransportSecurity.tls(bob()));
    call(bob);
    Identity who = seen.get(0);

    serverSecurity
        .revocations()
        .update(
            RevocationsProto.newBuilder()
                .setVersion(1)
                .addEntries(
                    RevocationProto.newBuilder()
                        .setName("bob")
                        .setIssuedBeforeMs(who.issuedMs() + 1))
                .build());

    // a resumed TLS session is answered with the reason, a full handshake refused: never served
    for (int i = 0; i < 3; i++) {
      try {
        MetaResponseProto r = call(bob);
        assertThat(r.getStatus()).isEqualTo(StatusProto.PERMISSION_DENIED);
        assertThat(r.getMessage()).contains("revoked");
      } catch (ExecutionException e) {
        assertThat(e.getCause()).isInstanceOf(IOException.class);
      }
    }
    assertThat(seen).hasSize(1);
  }
}
