package io.tessera.common.rpc;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Tells a waiting client that the server is alive while it owes the connection something: a request
 * being served, or a frame it has started to read (perhaps paused for room in its budget). Every
 * second such a connection gets a {@link Frame#PONG} unasked, so a client whose ping sits behind
 * megabytes of its own queued requests still hears the server, and keeps waiting instead of giving
 * up a live server. A server that owes nothing stays quiet: a client's ping finds it at once.
 */
final class BusyBeat extends ChannelInboundHandlerAdapter {
  static final long INTERVAL_MILLIS = 1000;

  private ScheduledFuture<?> beat;

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    beat =
        ctx.executor()
            .scheduleAtFixedRate(
                () -> {
                  if (owes(ctx)) {
                    ctx.channel()
                        .writeAndFlush(Frame.pong(0)); // from the tail: through the encoder
                  }
                },
                INTERVAL_MILLIS,
                INTERVAL_MILLIS,
                TimeUnit.MILLISECONDS);
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (beat != null) {
      beat.cancel(false);
    }
    super.channelInactive(ctx);
  }

  private static boolean owes(ChannelHandlerContext ctx) {
    FrameDecoder decoder = ctx.pipeline().get(FrameDecoder.class);
    RpcServerHandler handler = ctx.pipeline().get(RpcServerHandler.class);
    return (decoder != null && decoder.midFrame()) || (handler != null && handler.answering());
  }
}
