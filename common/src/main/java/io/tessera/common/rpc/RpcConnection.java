package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One multiplexed connection to a peer. Calls are matched to responses by request id; when
 * the connection drops every pending call fails with a {@link PeerUnreachableException}.
 */
public final class RpcConnection {
  private final String address;
  private final Channel channel;
  private final AtomicLong nextRequestId = new AtomicLong(1);
  private final ConcurrentHashMap<Long, CompletableFuture<Frame>> pending = new ConcurrentHashMap<>();
  private final long timeoutMillis;

  RpcConnection(String address, Channel channel, long timeoutMillis) {
    this.address = address;
    this.channel = channel;
    this.timeoutMillis = timeoutMillis;
  }

  public String address() {
    return address;
  }

  public boolean isOpen() {
    return channel.isActive();
  }

  /**
   * Sends a request; the payload's ownership passes to this call. The returned frame's
   * payload must be released by the caller.
   */
  public CompletableFuture<Frame> call(Service service, byte[] header, ByteBuf payload) {
    long id = nextRequestId.getAndIncrement();
    CompletableFuture<Frame> result = new CompletableFuture<>();
    pending.put(id, result);
    if (!channel.isActive()) {
      pending.remove(id);
      if (payload != null) {
        payload.release();
      }
      return CompletableFuture.failedFuture(new PeerUnreachableException(address, "connection closed"));
    }
    var timeout = channel.eventLoop().schedule(() -> {
      CompletableFuture<Frame> f = pending.remove(id);
      if (f != null) {
        f.completeExceptionally(new TimeoutException(
            service + " call to " + address + " got no answer within " + timeoutMillis + " ms"));
      }
    }, timeoutMillis, TimeUnit.MILLISECONDS);
    result.whenComplete((f, e) -> timeout.cancel(false));
    channel.writeAndFlush(Frame.request(id, service, header, payload)).addListener(done -> {
      if (!done.isSuccess()) {
        CompletableFuture<Frame> f = pending.remove(id);
        if (f != null) {
          Throwable cause = done.cause();
          f.completeExceptionally(cause instanceof FrameTooLargeException
              || (cause != null && cause.getCause() instanceof FrameTooLargeException)
              ? cause : new PeerUnreachableException(address, String.valueOf(cause)));
        }
      }
    });
    return result;
  }

  public void close() {
    channel.close();
  }

  void complete(Frame frame) {
    CompletableFuture<Frame> f = pending.remove(frame.requestId());
    if (f == null || !f.complete(frame)) {
      frame.release();
    }
  }

  void failAll(IOException cause) {
    for (Long id : pending.keySet()) {
      CompletableFuture<Frame> f = pending.remove(id);
      if (f != null) {
        f.completeExceptionally(cause);
      }
    }
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
      if (frame.kind() != Frame.RESPONSE || connection == null) {
        frame.release();
        return;
      }
      connection.complete(frame);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      if (connection != null) {
        connection.failAll(new PeerUnreachableException(connection.address, "connection closed"));
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
