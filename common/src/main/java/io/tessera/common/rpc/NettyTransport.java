package io.tessera.common.rpc;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

/** Native epoll where the platform has it, NIO otherwise. */
public final class NettyTransport {
  private static final boolean EPOLL = Epoll.isAvailable();

  private NettyTransport() {}

  /**
   * The buffers every channel reads into and writes from: Netty's pooled arenas. Netty 4.2's
   * default (the adaptive allocator) frees a chunk as soon as it empties and zeroes the next one it
   * allocates, which cost a streaming client as much CPU as copying the data, and its allocation
   * path is what the JIT spent longest compiling in a client's first seconds.
   */
  public static ByteBufAllocator allocator() {
    return PooledByteBufAllocator.DEFAULT;
  }

  public static EventLoopGroup newGroup(String name, int threads) {
    IoHandlerFactory factory = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    return new MultiThreadIoEventLoopGroup(threads, new DefaultThreadFactory(name, true), factory);
  }

  public static Class<? extends ServerChannel> serverChannel() {
    return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  public static Class<? extends SocketChannel> clientChannel() {
    return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }
}
