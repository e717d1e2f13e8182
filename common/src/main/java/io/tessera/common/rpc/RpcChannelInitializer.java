package io.tessera.common.rpc;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Server pipeline: idle and stall timeouts, frame decoder (within the server's budget of incomplete
 * frames), frame encoder, dispatch to the protocol's service.
 */
final class RpcChannelInitializer extends ChannelInitializer<SocketChannel> {
  private final Map<Service, RpcService> services;
  private final RpcServer.Limits limits;
  private final FrameBudget budget;

  RpcChannelInitializer(
      Map<Service, RpcService> services, RpcServer.Limits limits, FrameBudget budget) {
    this.services = services;
    this.limits = limits;
    this.budget = budget;
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    ch.pipeline()
        .addLast(
            "timeouts",
            new IdleStateHandler(
                limits.stalledFrame().toMillis(),
                0,
                limits.idle().toMillis(),
                TimeUnit.MILLISECONDS))
        .addLast("guard", new ConnectionGuard())
        .addLast("frame-decoder", new FrameDecoder(limits.maxFrameBytes(), budget))
        .addLast("frame-encoder", new FrameEncoder(limits.maxFrameBytes()))
        .addLast("dispatch", new RpcServerHandler(services));
  }
}
