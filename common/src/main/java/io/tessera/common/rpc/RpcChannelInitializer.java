package io.tessera.common.rpc;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import java.util.Map;

/** Server pipeline: frame decoder, frame encoder, dispatch to the protocol's service. */
final class RpcChannelInitializer extends ChannelInitializer<SocketChannel> {
  private final Map<Service, RpcService> services;
  private final int maxFrameBytes;

  RpcChannelInitializer(Map<Service, RpcService> services, int maxFrameBytes) {
    this.services = services;
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    ch.pipeline()
        .addLast("frame-decoder", new FrameDecoder(maxFrameBytes))
        .addLast("frame-encoder", new FrameEncoder(maxFrameBytes))
        .addLast("dispatch", new RpcServerHandler(services));
  }
}
