package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.PooledByteBufAllocator;
import io.tessera.common.proto.MetaResponseProto;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * A client that sends requests and never reads the replies costs a server a bounded amount of
 * memory, and other clients are served meanwhile. Before, the server read every request it was sent
 * and queued every reply (a read's can be 64 MiB) for a peer that took none of them.
 */
class BackPressureTest {
  private static final int MB = 1 << 20;
  private static final int REQUESTS_PER_CONNECTION = 8;
  private static final int SENT = 200;

  @Test
  void aClientThatNeverTakesItsRepliesIsNoLongerReadAndOthersAreStillServed() throws Exception {
    AtomicInteger served = new AtomicInteger();
    RpcServer server =
        server(
            "pressure",
            n -> {
              served.incrementAndGet();
              return CompletableFuture.completedFuture(
                  RpcReply.of(
                      MetaResponseProto.getDefaultInstance(),
                      PooledByteBufAllocator.DEFAULT.directBuffer(MB).writeZero(MB)));
            });
    long before = PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
    try (Socket greedy = new Socket("127.0.0.1", server.port());
        RpcClientPool pool = new RpcClientPool("polite", 1, 4 * MB, 30_000, 2000)) {
      sendRequestsAndNeverRead(greedy);
      await().atMost(Duration.ofSeconds(10)).until(() -> served.get() > 0);
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(5))
          .until(() -> served.get() < SENT / 4);
      int servedGreedy = served.get();
      for (int i = 0; i < 20; i++) {
        Frame reply =
            pool.call("127.0.0.1:" + server.port(), Service.META, new byte[0], null)
                .get(10, TimeUnit.SECONDS);
        assertThat(reply.payload().readableBytes()).isEqualTo(MB);
        reply.release();
      }
      assertThat(served.get() - servedGreedy)
          .as("calls served while the polite client made 20: the greedy connection is not read")
          .isBetween(20, 20 + REQUESTS_PER_CONNECTION);
      assertThat(PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory() - before)
          .as("direct memory the unread replies hold")
          .isLessThan(48L * MB);
    } finally {
      server.close();
    }
  }

  /**
   * What one connection can make a server hold is bounded: requests past its limit are not taken
   * from the connection until earlier ones are answered, so they never reach the server's queues (a
   * data server's workers, the meta group's batcher, a proxy's application queues).
   */
  @Test
  void aConnectionHasAtMostItsLimitOfRequestsInTheServerAtOnce() throws Exception {
    AtomicInteger served = new AtomicInteger();
    CompletableFuture<RpcReply> never = new CompletableFuture<>();
    RpcServer server =
        server(
            "slow",
            n -> {
              served.incrementAndGet();
              return never;
            });
    try (Socket eager = new Socket("127.0.0.1", server.port())) {
      sendRequestsAndNeverRead(eager);
      await().atMost(Duration.ofSeconds(10)).until(() -> served.get() >= REQUESTS_PER_CONNECTION);
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(5))
          .until(() -> served.get() == REQUESTS_PER_CONNECTION);
    } finally {
      server.close();
    }
  }

  /** A server allowing {@link #REQUESTS_PER_CONNECTION} requests in progress per connection. */
  private static RpcServer server(String name, IntFunction<CompletableFuture<RpcReply>> answers)
      throws InterruptedException {
    return ScriptedMetaService.start(
        name,
        new RpcServer.Limits(
            4 * MB,
            64 * MB,
            Duration.ofSeconds(30),
            Duration.ofMinutes(10),
            1,
            REQUESTS_PER_CONNECTION),
        answers);
  }

  /** Writes {@link #SENT} requests, in the background: the writes block once they are not read. */
  private static void sendRequestsAndNeverRead(Socket s) {
    ByteBuffer frames = ByteBuffer.allocate(SENT * (4 + Frame.FIXED_BYTES));
    for (int id = 1; id <= SENT; id++) {
      frames
          .putInt(Frame.FIXED_BYTES)
          .putLong(id)
          .put(Frame.REQUEST)
          .put(Service.META.code())
          .putInt(0);
    }
    CompletableFuture.runAsync(
        () -> {
          try {
            OutputStream out = s.getOutputStream();
            out.write(frames.array());
            out.flush();
          } catch (Exception closed) {
            // the test closed it
          }
        });
  }
}
