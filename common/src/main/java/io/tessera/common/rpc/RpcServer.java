package io.tessera.common.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Binds a TCP port and serves the given protocols over {@link Frame}s. */
public final class RpcServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);

  private final String name;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Channel channel;

  private RpcServer(String name, EventLoopGroup boss, EventLoopGroup workers, Channel channel) {
    this.name = name;
    this.boss = boss;
    this.workers = workers;
    this.channel = channel;
  }

  /** Starts serving; throws if the port cannot be bound. */
  public static RpcServer start(String name, InetSocketAddress bind, Map<Service, RpcService> services,
      int maxFrameBytes, int ioThreads) throws InterruptedException {
    EventLoopGroup boss = NettyTransport.newGroup(name + "-accept", 1);
    EventLoopGroup workers = NettyTransport.newGroup(name + "-io", ioThreads);
    try {
      Channel ch = new ServerBootstrap()
          .group(boss, workers)
          .channel(NettyTransport.serverChannel())
          .option(ChannelOption.SO_REUSEADDR, true)
          .childOption(ChannelOption.TCP_NODELAY, true)
          .childOption(ChannelOption.ALLOCATOR, NettyTransport.allocator())
          .childHandler(new RpcChannelInitializer(services, maxFrameBytes))
          .bind(bind).sync().channel();
      return new RpcServer(name, boss, workers, ch);
    } catch (RuntimeException | InterruptedException e) {
      boss.shutdownGracefully();
      workers.shutdownGracefully();
      throw e;
    }
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
    LOG.debug("{} stopped", name);
  }
}
