package io.tessera.common.rpc;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a server's connections that hold resources for nothing: one stuck half-way through a frame
 * (its bytes hold memory; one line in the log), and one idle for long (quietly, saying {@link
 * Frame#GOAWAY} first: the client connects again when it next calls, and sends again a call that
 * crossed the close). A connection the server itself paused, waiting for room in its {@link
 * FrameBudget}, is not stuck.
 */
final class ConnectionGuard extends ChannelDuplexHandler {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionGuard.class);

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (!(evt instanceof IdleStateEvent idle)) {
      super.userEventTriggered(ctx, evt);
      return;
    }
    FrameDecoder decoder = ctx.pipeline().get(FrameDecoder.class);
    if (idle.state() == IdleState.READER_IDLE
        && decoder != null
        && decoder.midFrame()
        && ctx.channel().config().isAutoRead()) {
      LOG.warn(
          "Closing connection from {}: it stopped sending half-way through a frame",
          ctx.channel().remoteAddress());
      ctx.close();
    } else if (idle.state() == IdleState.ALL_IDLE && !answering(ctx)) {
      LOG.debug("Closing idle connection from {}", ctx.channel().remoteAddress());
      // reads stop first, so a request arriving now is never half-served: the client resends it
      ctx.channel().config().setAutoRead(false);
      ctx.writeAndFlush(Frame.goAway()).addListener(ChannelFutureListener.CLOSE);
    }
  }

  private static boolean answering(ChannelHandlerContext ctx) {
    RpcServerHandler handler = ctx.pipeline().get(RpcServerHandler.class);
    return handler != null && handler.answering();
  }
}
