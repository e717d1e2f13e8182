package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.MetaResponseProto;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A caller that stops waiting for an answer (its own timeout, a cancel) must not leak the answer
 * that arrives afterwards: a server process making such calls for days (a recovery coordinator
 * under a slow data server) would otherwise pin network buffers until it runs out of memory.
 */
class AbandonedCallTest {
  private static final int ANSWER_BYTES = 24 << 20;

  @Test
  void anAnswerArrivingAfterTheCallerGaveUpIsReleased() throws Exception {
    CompletableFuture<RpcReply> late = new CompletableFuture<>();
    // the second call is answered late; every other one at once
    RpcServer server =
        ScriptedMetaService.start(
            "late", 64 << 20, n -> n == 2 ? late : ScriptedMetaService.empty());
    try (RpcClientPool pool = new RpcClientPool("late-test", 1, 64 << 20, 60_000, 2000)) {
      String address = "127.0.0.1:" + server.port();
      pool.call(address, Service.META, new byte[0], null)
          .get(10, TimeUnit.SECONDS)
          .release(); // connected
      long before = directBytesInUse();

      CompletableFuture<Frame> abandoned =
          pool.call(address, Service.META, new byte[0], null).orTimeout(100, TimeUnit.MILLISECONDS);
      assertThatThrownBy(() -> abandoned.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(TimeoutException.class);
      late.complete(
          RpcReply.of(
              MetaResponseProto.getDefaultInstance(),
              Unpooled.wrappedBuffer(new byte[ANSWER_BYTES])));
      // answers come back in the order they were sent on the one connection: once this one is
      // here, the late answer has been received (into the client's pooled direct memory) and
      // handled
      pool.call(address, Service.META, new byte[0], null).get(10, TimeUnit.SECONDS).release();

      assertThat(directBytesInUse() - before)
          .as("direct memory still held after the late answer arrived")
          .isLessThan(ANSWER_BYTES / 2);
    } finally {
      server.close();
    }
  }

  private static long directBytesInUse() {
    return PooledByteBufAllocator.DEFAULT.metric().usedDirectMemory();
  }
}
