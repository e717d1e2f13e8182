package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.buffer.Unpooled;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.security.TransportSecurity;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A peer that stops answering (stopped, partitioned away) is given up on long before the call
 * timeout; a live peer that is merely slow to get to a request is not.
 */
class PeerSilenceTest {
  private static final int MB = 1 << 20;
  private static final long SILENCE_MILLIS = 2000;

  private static RpcClientPool pool(String name) {
    return new RpcClientPool(
        name, 1, 8 * MB, 60_000, 2000, SILENCE_MILLIS, TransportSecurity.plaintext());
  }

  @Test
  void aPeerThatAcceptsButNeverAnswersIsGivenUpAfterTheSilenceLimitNotTheCallTimeout()
      throws Exception {
    try (ServerSocket mute = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        RpcClientPool pool = pool("silence-test")) {
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
      assertThat(tookMs).isBetween(SILENCE_MILLIS - 100, SILENCE_MILLIS + 3000);
    }
  }

  @Test
  void aPeerBusyWithALongCallStillAnswersPingsAndIsKeptWaitingFor() throws Exception {
    CompletableFuture<RpcReply> slow = new CompletableFuture<>();
    RpcServer server = ScriptedMetaService.start("busy", 1 << 20, n -> slow);
    try (RpcClientPool pool = pool("busy-test")) {
      CompletableFuture<Frame> call =
          pool.call("127.0.0.1:" + server.port(), Service.META, new byte[0], null);
      Thread.sleep(SILENCE_MILLIS + 2000); // longer than the silence limit
      assertThat(call).as("the server answers pings while its call runs").isNotDone();
      slow.complete(RpcReply.of(MetaResponseProto.getDefaultInstance()));
      call.get(10, TimeUnit.SECONDS).release();
    } finally {
      server.close();
    }
  }

  /**
   * The overload story: a server that has stopped reading a connection (here: waiting for room in
   * its budget of half-received frames, as under many writers) cannot see that connection's ping,
   * queued behind the request it has half read. It says it is alive unasked, and the client waits
   * for it instead of giving a live server up.
   */
  @Test
  void aServerThatStoppedReadingARequestForRoomIsWaitedForNotGivenUp() throws Exception {
    // the budget holds one frame: a stalled sender's, until the stall timeout closes it
    Duration stall = Duration.ofMillis(3 * SILENCE_MILLIS);
    RpcServer server =
        ScriptedMetaService.start(
            "paused",
            new RpcServer.Limits(8 * MB, MB, stall, Duration.ofMinutes(10), 1),
            n -> ScriptedMetaService.empty());
    try (Socket hog = HalfSentFrame.send(server.port(), MB, MB / 2);
        RpcClientPool pool = pool("paused-test")) {
      await().atMost(Duration.ofSeconds(10)).until(() -> server.incompleteFrameBytes() > 0);
      long start = System.nanoTime();
      CompletableFuture<Frame> call =
          pool.call(
              "127.0.0.1:" + server.port(),
              Service.META,
              new byte[0],
              Unpooled.wrappedBuffer(new byte[4 * MB]));
      call.get(30, TimeUnit.SECONDS).release();
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .as("the request waited for the stalled frame's room, longer than the silence limit")
          .isGreaterThan(Duration.ofMillis(2 * SILENCE_MILLIS));
    } finally {
      server.close();
    }
  }
}
