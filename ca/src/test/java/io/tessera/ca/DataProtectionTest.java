package io.tessera.ca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.DataProtection;
import io.tessera.common.security.Identity;
import io.tessera.common.security.TransportSecurity;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * tessera.security.data-protection, seen from the network between a client and a data server: with
 * privacy nobody on the path reads the data; with authentication the handshake still proves both
 * ends and the data then crosses in clear, intact, request after request; metadata never does; and
 * a server set to privacy refuses a client that asks for clear frames, saying why.
 */
class DataProtectionTest {
  private static final byte[] SECRET =
      "the payroll of every employee, 2026".repeat(30).getBytes(StandardCharsets.UTF_8);

  @TempDir Path dir;
  private CertificateAuthority ca;
  private final List<AutoCloseable> open = new ArrayList<>();
  private final List<Identity> seen = new CopyOnWriteArrayList<>();

  @BeforeEach
  void createCa() throws Exception {
    ca = CertificateAuthority.create(dir, "test");
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  /** Answers every call with the payload it sent, recording who called. */
  private final class Echo implements RpcService {
    @Override
    public CompletableFuture<RpcReply> handle(RpcCall call) {
      seen.add(call.identity());
      return CompletableFuture.completedFuture(
          RpcReply.of(MetaResponseProto.newBuilder().setMessage("echo").build(), call.payload()));
    }

    @Override
    public RpcReply errorReply(Throwable cause) {
      return RpcReply.of(
          MetaResponseProto.newBuilder()
              .setStatus(StatusProto.INTERNAL)
              .setMessage(String.valueOf(cause.getMessage()))
              .build());
    }
  }

  private RpcServer server(Service service, DataProtection protection) throws Exception {
    RpcServer s =
        RpcServer.start(
            "ds-1",
            new InetSocketAddress("127.0.0.1", 0),
            Map.of(service, new Echo()),
            RpcServer.Limits.of(4 << 20, 1),
            TransportSecurity.tls(
                ca.issue(
                    Identity.server("ds-1", Identity.Role.DATA), Duration.ofDays(1), List.of()),
                protection));
    open.add(s::close);
    return s;
  }

  private RpcClientPool client(DataProtection protection) throws Exception {
    RpcClientPool p =
        new RpcClientPool(
            "test",
            1,
            4 << 20,
            5000,
            2000,
            5000,
            TransportSecurity.tls(
                ca.issue(
                    Identity.user("bob", 1001, 1001, List.of(), false),
                    Duration.ofDays(1),
                    List.of()),
                protection));
    open.add(p::close);
    return p;
  }

  /** Sends {@code payload} through the relay and returns what came back. */
  private static byte[] echo(RpcClientPool client, Relay relay, Service service, byte[] payload)
      throws Exception {
    Frame f =
        client
            .call(
                "127.0.0.1:" + relay.port(),
                service,
                new byte[0],
                Unpooled.wrappedBuffer(payload.clone()))
            .get(10, TimeUnit.SECONDS);
    try {
      ByteBuf p = f.payload();
      byte[] back = new byte[p == null ? 0 : p.readableBytes()];
      if (p != null) {
        p.getBytes(p.readerIndex(), back);
      }
      return back;
    } finally {
      f.release();
    }
  }

  @Test
  void withPrivacyAListenerOnTheNetworkSeesNoneOfTheData() throws Exception {
    Relay relay = relayTo(server(Service.DATA, DataProtection.PRIVACY));

    byte[] back = echo(client(DataProtection.PRIVACY), relay, Service.DATA, SECRET);

    assertThat(back).isEqualTo(SECRET);
    assertThat(relay.sawClear(SECRET)).isFalse();
  }

  @Test
  void withAuthenticationTheHandshakeProvesBothEndsThenDataCrossesInClearAndIntact()
      throws Exception {
    Relay relay = relayTo(server(Service.DATA, DataProtection.AUTHENTICATION));
    RpcClientPool bob = client(DataProtection.AUTHENTICATION);

    for (int i = 0; i < 20; i++) {
      byte[] big = new byte[(1 << 20) + i];
      Arrays.fill(big, (byte) i);
      System.arraycopy(SECRET, 0, big, i * 1000, SECRET.length);
      assertThat(echo(bob, relay, Service.DATA, big)).isEqualTo(big);
    }

    assertThat(relay.sawClear(SECRET)).isTrue();
    assertThat(seen).hasSize(20).allSatisfy(who -> assertThat(who.name()).isEqualTo("bob"));
  }

  @Test
  void metadataStaysEncryptedWhateverTheSetting() throws Exception {
    Relay relay = relayTo(server(Service.META, DataProtection.AUTHENTICATION));

    byte[] back = echo(client(DataProtection.AUTHENTICATION), relay, Service.META, SECRET);

    assertThat(back).isEqualTo(SECRET);
    assertThat(relay.sawClear(SECRET)).isFalse();
  }

  @Test
  void aServerSetToPrivacyRefusesAClientAskingForClearFramesAndSaysWhy() throws Exception {
    Relay relay = relayTo(server(Service.DATA, DataProtection.PRIVACY));

    assertThatThrownBy(
            () -> echo(client(DataProtection.AUTHENTICATION), relay, Service.DATA, SECRET))
        .cause()
        .hasMessageContaining("requires encrypted")
        .hasMessageContaining("tessera.security.data-protection");
    assertThat(relay.sawClear(SECRET)).isFalse();
    assertThat(seen).isEmpty();
  }

  private Relay relayTo(RpcServer target) throws IOException {
    Relay r = new Relay(target.port());
    open.add(r);
    return r;
  }

  /**
   * A listener on the path: forwards one connection at a time to the server, keeping a copy of what
   * the client sent.
   */
  private static final class Relay implements AutoCloseable {
    private final ServerSocket listening =
        new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final ByteArrayOutputStream fromClient = new ByteArrayOutputStream();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    Relay(int targetPort) throws IOException {
      acceptor =
          new Thread(
              () -> {
                try {
                  while (true) {
                    Socket c = listening.accept();
                    Socket s = new Socket("127.0.0.1", targetPort);
                    sockets.add(c);
                    sockets.add(s);
                    pump(c.getInputStream(), s.getOutputStream(), true);
                    pump(s.getInputStream(), c.getOutputStream(), false);
                  }
                } catch (IOException closed) {
                  // the test is over
                }
              },
              "relay");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    int port() {
      return listening.getLocalPort();
    }

    private void pump(InputStream in, OutputStream out, boolean record) {
      Thread t =
          new Thread(
              () -> {
                byte[] buf = new byte[64 << 10];
                try (in;
                    out) {
                  for (int n; (n = in.read(buf)) > 0; ) {
                    if (record) {
                      synchronized (fromClient) {
                        fromClient.write(buf, 0, n);
                      }
                    }
                    out.write(buf, 0, n);
                  }
                } catch (IOException closed) {
                  // one side closed the connection
                }
              },
              "relay-pump");
      t.setDaemon(true);
      t.start();
    }

    boolean sawClear(byte[] secret) {
      byte[] all;
      synchronized (fromClient) {
        all = fromClient.toByteArray();
      }
      String haystack = new String(all, StandardCharsets.ISO_8859_1);
      return haystack.contains(new String(secret, StandardCharsets.ISO_8859_1));
    }

    @Override
    public void close() throws IOException {
      listening.close();
      for (Socket s : sockets) {
        s.close();
      }
    }
  }
}
