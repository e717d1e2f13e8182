package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.PooledByteBufAllocator;
import io.tessera.common.proto.MetaResponseProto;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A bad peer costs a server its connection, not its memory: six to eight connections each holding
 * 71 MiB of a declared 72 MiB frame exhausted a data server's direct memory, which stayed held
 * after they closed, and idle or half-sent connections were never closed.
 */
class ConnectionLimitsTest {
  private static final int MB = 1 << 20;

  private static RpcServer server(RpcServer.Limits limits) throws InterruptedException {
    return RpcServer.start(
        "limits",
        new InetSocketAddress("127.0.0.1", 0),
        Map.of(
            Service.META,
            new RpcService() {
              @Override
              public CompletableFuture<RpcReply> handle(RpcCall call) {
                call.payload().release();
                return CompletableFuture.completedFuture(
                    RpcReply.of(MetaResponseProto.getDefaultInstance()));
              }

              @Override
              public RpcReply errorReply(Throwable cause) {
                return RpcReply.of(MetaResponseProto.getDefaultInstance());
              }
            }),
        limits,
        io.tessera.common.security.TransportSecurity.plaintext());
  }

  @Test
  void halfSentFramesHoldAtMostTheBudgetAndAreClosedWhenTheyStall() throws Exception {
    RpcServer.Limits limits =
        new RpcServer.Limits(16 * MB, 24 * MB, Duration.ofSeconds(2), Duration.ofMinutes(10), 1);
    RpcServer server = server(limits);
    List<Socket> bad = new ArrayList<>();
    try (RpcClientPool pool = new RpcClientPool("limits-test", 1, 16 * MB, 10_000, 2000)) {
      String address = "127.0.0.1:" + server.port();
      pool.call(address, Service.META, new byte[0], null).get(10, TimeUnit.SECONDS).release();
      long before = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
      for (int i = 0; i < 6; i++) {
        bad.add(HalfSentFrame.send(server.port(), 16 * MB - 64, 15 * MB));
      }
      // a legitimate client is served meanwhile
      await().atMost(Duration.ofSeconds(20)).until(() -> server.incompleteFrameBytes() > 15 * MB);
      pool.call(address, Service.META, new byte[0], null).get(10, TimeUnit.SECONDS).release();
      assertThat(server.incompleteFrameBytes())
          .as("bytes reserved for incomplete frames")
          .isLessThanOrEqualTo(24 * MB);
      // the pool's chunks are coarse (a few MiB each, per arena): without the budget the six frames
      // held their 90 MiB; with it, what is reserved plus a read or two of each paused connection
      assertThat(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory() - before)
          .as("direct memory the half-sent frames hold")
          .isLessThan(40L * MB);
      // stalled mid-frame: closed after the stall timeout, and their memory goes back
      for (Socket s : bad) {
        InputStream in = s.getInputStream();
        in.readAllBytes(); // the server's beats (it owes this connection an answer) until it closes
        assertThat(in.read()).as("the server closed a connection stuck mid-frame").isEqualTo(-1);
      }
      await().atMost(Duration.ofSeconds(10)).until(() -> server.incompleteFrameBytes() == 0);
      pool.call(address, Service.META, new byte[0], null).get(10, TimeUnit.SECONDS).release();
    } finally {
      for (Socket s : bad) {
        s.close();
      }
      server.close();
    }
  }

  @Test
  void idleConnectionsAreClosedAndAClientJustConnectsAgain() throws Exception {
    RpcServer server =
        server(new RpcServer.Limits(MB, 8 * MB, Duration.ofSeconds(30), Duration.ofSeconds(1), 1));
    try (RpcClientPool pool = new RpcClientPool("idle-test", 1, MB, 10_000, 2000)) {
      String address = "127.0.0.1:" + server.port();
      pool.call(address, Service.META, new byte[0], null).get(10, TimeUnit.SECONDS).release();
      try (Socket idle = new Socket("127.0.0.1", server.port())) {
        idle.setSoTimeout(10_000);
        assertThat(idle.getInputStream().read()).as("an idle connection is closed").isEqualTo(-1);
      }
      // the pooled connection, idle longer than that one, is closed too: the next call connects
      // again
      pool.call(address, Service.META, new byte[0], null).get(10, TimeUnit.SECONDS).release();
    } finally {
      server.close();
    }
  }
}
