package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.tessera.common.cluster.LearnedLimit;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One multiplexed connection to a peer. Calls are matched to responses by request id; when the
 * connection drops every pending call fails with a {@link PeerUnreachableException}.
 *
 * <p>A peer that stops answering without closing the connection (stopped, partitioned away, its
 * machine gone) is found by silence: while calls wait and nothing arrived for a second, the
 * connection pings (the peer's network thread answers at once, however long its calls take, and a
 * server that owes answers says it is alive every second unasked, see {@link BusyBeat}); after the
 * silence limit with nothing at all, every waiting call fails with {@link PeerUnreachableException}
 * and the connection closes, long before the call timeout.
 *
 * <p>The limit adapts to the peer ({@link LearnedLimit}): one heard from after a long silence gets
 * twice that before it is given up.
 */
public final class RpcConnection {
  /**
   * Silence after which a peer with calls outstanding is given up (bounded by the call timeout). On
   * a loaded machine a live server's process can get no CPU for several seconds (see
   * docs/benchmarks/2026-11-29-overload.md): a shorter limit gives live servers up.
   */
  public static final long DEFAULT_SILENCE_MILLIS = 10_000;

  private static final long PING_AFTER_MILLIS = 1000;

  private final String address;
  private final Channel channel;
  private final AtomicLong nextRequestId = new AtomicLong(1);
  private final ConcurrentHashMap<Long, CompletableFuture<Frame>> pending =
      new ConcurrentHashMap<>();
  private final long timeoutMillis;
  private final LearnedLimit silence;

  /** Since when the connection waits without hearing anything (reset by every frame received). */
  private volatile long quietSince = System.nanoTime();

  /** The server said it closes this connection and reads nothing more from it. */
  private volatile boolean goneAway;

  RpcConnection(String address, Channel channel, long timeoutMillis, long silenceMillis) {
    this.address = address;
    this.channel = channel;
    this.timeoutMillis = timeoutMillis;
    this.silence =
        new LearnedLimit(
            TimeUnit.MILLISECONDS.toNanos(Math.min(timeoutMillis, silenceMillis)),
            TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
    var check =
        channel
            .eventLoop()
            .scheduleWithFixedDelay(
                this::checkSilence,
                PING_AFTER_MILLIS,
                PING_AFTER_MILLIS / 2,
                TimeUnit.MILLISECONDS);
    channel.closeFuture().addListener(f -> check.cancel(false));
  }

  /** Pings a quiet peer that owes answers; gives it up after the silence limit. */
  private void checkSilence() {
    if (pending.isEmpty()) {
      return;
    }
    long quiet = System.nanoTime() - quietSince;
    if (quiet > silenceLimitNanos()) {
      failAll(
          new PeerUnreachableException(
              address,
              "no answer, not even to a ping, for " + TimeUnit.NANOSECONDS.toMillis(quiet) + " ms",
              true));
      channel.close();
    } else if (quiet > TimeUnit.MILLISECONDS.toNanos(PING_AFTER_MILLIS)) {
      channel.writeAndFlush(Frame.ping(0));
    }
  }

  public String address() {
    return address;
  }

  /** Whether no call waits for an answer. */
  boolean idle() {
    return pending.isEmpty();
  }

  public boolean isOpen() {
    return channel.isActive() && !goneAway;
  }

  /**
   * Sends a request; the payload's ownership passes to this call. The returned frame's payload must
   * be released by the caller.
   */
  public CompletableFuture<Frame> call(Service service, byte[] header, ByteBuf payload) {
    long id = nextRequestId.getAndIncrement();
    CompletableFuture<Frame> result = new CompletableFuture<>();
    if (pending.isEmpty()) {
      quietSince = System.nanoTime(); // was idle: the wait for an answer starts now
    }
    pending.put(id, result);
    if (!channel.isActive()) {
      pending.remove(id);
      if (payload != null) {
        payload.release();
      }
      return CompletableFuture.failedFuture(
          PeerUnreachableException.notSent(address, "connection closed"));
    }
    var timeout =
        channel
            .eventLoop()
            .schedule(
                () -> {
                  CompletableFuture<Frame> f = pending.remove(id);
                  if (f != null) {
                    f.completeExceptionally(
                        new TimeoutException(
                            service
                                + " call to "
                                + address
                                + " got no answer within "
                                + timeoutMillis
                                + " ms"));
                  }
                },
                timeoutMillis,
                TimeUnit.MILLISECONDS);
    result.whenComplete((f, e) -> timeout.cancel(false));
    channel
        .writeAndFlush(Frame.request(id, service, header, payload))
        .addListener(
            done -> {
              quietSince = System.nanoTime(); // the request has left: its answer is owed from now
              if (!done.isSuccess()) {
                CompletableFuture<Frame> f = pending.remove(id);
                if (f != null) {
                  Throwable cause = done.cause();
                  f.completeExceptionally(
                      cause instanceof FrameTooLargeException
                              || (cause != null
                                  && cause.getCause() instanceof FrameTooLargeException)
                          ? cause
                          : PeerUnreachableException.notSent(address, cause));
                }
              }
            });
    return result;
  }

  public void close() {
    channel.close();
  }

  void complete(Frame frame) {
    heard();
    if (frame.kind() == Frame.GOAWAY) {
      goneAway = true;
      frame.release();
      return;
    }
    if (frame.kind() == Frame.PONG) {
      frame.release();
      return;
    }
    CompletableFuture<Frame> f = pending.remove(frame.requestId());
    if (f == null || !f.complete(frame)) {
      frame.release();
    }
  }

  private void heard() {
    long now = System.nanoTime();
    if (!pending.isEmpty()) {
      silence.ended(now - quietSince, now);
    }
    quietSince = now;
  }

  /** The silence after which this peer is given up now (within the call timeout). */
  long silenceLimitNanos() {
    return silence.nanos();
  }

  void failAll(IOException cause) {
    for (Long id : pending.keySet()) {
      CompletableFuture<Frame> f = pending.remove(id);
      if (f != null) {
        f.completeExceptionally(cause);
      }
    }
  }

  /**
   * The connection closed. After the server's {@link Frame#GOAWAY} no call still waiting was read,
   * so the caller may send it again on a new connection.
   */
  void closed() {
    failAll(
        goneAway
            ? PeerUnreachableException.closedBeforeRead(address)
            : new PeerUnreachableException(address, "connection closed"));
  }

  /** Pipeline tail of a client connection. */
  static final class ResponseHandler extends SimpleChannelInboundHandler<Frame> {
    private volatile RpcConnection connection;

    ResponseHandler() {
      super(false);
    }

    void bind(RpcConnection c) {
      this.connection = c;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
      if (frame.kind() == Frame.REQUEST || frame.kind() == Frame.PING || connection == null) {
        frame.release();
        return;
      }
      connection.complete(frame);
    }

    /** Bytes arrived (perhaps part of a large frame): the peer is alive. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
      if (connection != null) {
        connection.heard();
      }
      ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (connection != null) {
        connection.closed();
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      RpcConnection c = connection;
      IOException refused = c == null ? null : TlsFailures.afterHandshake(c.address, cause);
      if (refused != null) {
        c.failAll(refused); // before the close fails them as merely unreachable
      }
      ctx.close();
    }
  }
}
