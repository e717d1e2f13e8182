package io.tessera.common.rpc;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each request frame to its protocol's service and writes the reply with the same request id.
 * A connection that sends something unframeable is closed; others go on.
 */
final class RpcServerHandler extends SimpleChannelInboundHandler<Frame> {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServerHandler.class);
  private final Map<Service, RpcService> services;
  private final AtomicInteger answering = new AtomicInteger();

  RpcServerHandler(Map<Service, RpcService> services) {
    super(false);
    this.services = services;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
    if (frame.kind() == Frame.PING) {
      frame.release();
      ctx.writeAndFlush(Frame.pong(frame.requestId()));
      return;
    }
    RpcService service = services.get(frame.service());
    if (frame.kind() != Frame.REQUEST || service == null) {
      frame.release();
      LOG.warn(
          "Closing connection from {}: it sent a {} frame for service {} which this server does not serve",
          ctx.channel().remoteAddress(),
          frame.kind() == Frame.REQUEST ? "request" : "response",
          frame.service());
      ctx.close();
      return;
    }
    CompletableFuture<RpcReply> reply;
    answering.incrementAndGet();
    try {
      reply =
          service.handle(
              new RpcCall(frame.header(), frame.payload(), ctx.channel().remoteAddress()));
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    reply.whenComplete(
        (r, err) -> {
          answering.decrementAndGet();
          RpcReply out = err == null ? r : service.errorReply(err);
          if (err != null) {
            LOG.warn(
                "{} request from {} failed: {}",
                frame.service(),
                ctx.channel().remoteAddress(),
                err.toString());
          }
          if (!ctx.channel().isActive()) {
            out.payload().release();
            return;
          }
          ctx.writeAndFlush(
              Frame.response(frame.requestId(), frame.service(), out.header(), out.payload()));
        });
  }

  /** Whether a request of this connection is still being answered. */
  boolean answering() {
    return answering.get() > 0;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof DecoderException) {
      LOG.warn(
          "Closing connection from {}: malformed frame ({})",
          ctx.channel().remoteAddress(),
          cause.getCause() != null ? cause.getCause().getMessage() : cause.getMessage());
    } else if (cause instanceof IOException) {
      LOG.debug("Connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    } else {
      LOG.warn(
          "Closing connection from {} after an unexpected error",
          ctx.channel().remoteAddress(),
          cause);
    }
    ctx.close();
  }
}
