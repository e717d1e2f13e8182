package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.proto.MetaResponseProto;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A peer that stops answering (stopped, partitioned away) is given up on long before the call
 * timeout.
 */
class PeerSilenceTest {
  @Test
  void aPeerThatAcceptsButNeverAnswersIsGivenUpAfterTheSilenceLimitNotTheCallTimeout()
      throws Exception {
    try (ServerSocket mute = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        RpcClientPool pool = new RpcClientPool("silence-test", 1, 1 << 20, 60_000, 2000)) {
      Thread swallower =
          new Thread(
              () -> {
                try (Socket s = mute.accept();
                    InputStream in = s.getInputStream()) {
                  in.transferTo(
                      OutputStream.nullOutputStream()); // reads everything, answers nothing
                } catch (Exception e) {
                  // closed by the client
                }
              });
      swallower.setDaemon(true);
      swallower.start();
      long start = System.nanoTime();
      CompletableFuture<Frame> call =
          pool.call("127.0.0.1:" + mute.getLocalPort(), Service.META, new byte[0], null);
      assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .cause()
          .isInstanceOf(PeerUnreachableException.class)
          .hasMessageContaining("not even to a ping");
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertThat(tookMs)
          .isBetween(
              RpcConnection.DEFAULT_SILENCE_MILLIS - 100,
              RpcConnection.DEFAULT_SILENCE_MILLIS + 3000);
    }
  }

  @Test
  void aPeerBusyWithALongCallStillAnswersPingsAndIsKeptWaitingFor() throws Exception {
    CompletableFuture<RpcReply> slow = new CompletableFuture<>();
    RpcServer server = ScriptedMetaService.start("busy", 1 << 20, n -> slow);
    try (RpcClientPool pool = new RpcClientPool("busy-test", 1, 1 << 20, 60_000, 2000)) {
      CompletableFuture<Frame> call =
          pool.call("127.0.0.1:" + server.port(), Service.META, new byte[0], null);
      Thread.sleep(RpcConnection.DEFAULT_SILENCE_MILLIS + 2000); // longer than the silence limit
      assertThat(call).as("the server answers pings while its call runs").isNotDone();
      slow.complete(RpcReply.of(MetaResponseProto.getDefaultInstance()));
      call.get(10, TimeUnit.SECONDS).release();
    } finally {
      server.close();
    }
  }
}
