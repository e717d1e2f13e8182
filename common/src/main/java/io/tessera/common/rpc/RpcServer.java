package io.tessera.common.rpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.tessera.common.security.TransportSecurity;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Binds a TCP port and serves the given protocols over {@link Frame}s. */
public final class RpcServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServer.class);

  private final String name;
  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Channel channel;
  private final FrameBudget budget;

  private RpcServer(
      String name,
      EventLoopGroup boss,
      EventLoopGroup workers,
      Channel channel,
      FrameBudget budget) {
    this.budget = budget;
    this.name = name;
    this.boss = boss;
    this.workers = workers;
    this.channel = channel;
  }

  /**
   * What a server's connections may do: the largest frame, the bytes of frames arriving in pieces
   * it holds over all connections, how long a connection may stall mid-frame or idle.
   */
  public record Limits(
      int maxFrameBytes,
      long incompleteFrameBytes,
      Duration stalledFrame,
      Duration idle,
      int ioThreads,
      int requestsPerConnection) {
    /** Requests one connection may have in progress before the server stops reading it. */
    public static final int DEFAULT_REQUESTS_PER_CONNECTION = 64;

    public Limits {
      if (requestsPerConnection < 1) {
        throw new IllegalArgumentException(
            "requests per connection must be at least 1; got " + requestsPerConnection);
      }
    }

    /** With the default number of requests per connection. */
    public Limits(
        int maxFrameBytes,
        long incompleteFrameBytes,
        Duration stalledFrame,
        Duration idle,
        int ioThreads) {
      this(
          maxFrameBytes,
          incompleteFrameBytes,
          stalledFrame,
          idle,
          ioThreads,
          DEFAULT_REQUESTS_PER_CONNECTION);
    }

    /** Defaults around a frame limit (tests). */
    public static Limits of(int maxFrameBytes, int ioThreads) {
      return new Limits(
          maxFrameBytes, 256L << 20, Duration.ofSeconds(30), Duration.ofMinutes(10), ioThreads);
    }
  }

  /**
   * Starts serving without security, with default limits around a frame size (tests); throws if the
   * port cannot be bound.
   */
  public static RpcServer start(
      String name,
      InetSocketAddress bind,
      Map<Service, RpcService> services,
      int maxFrameBytes,
      int ioThreads)
      throws InterruptedException {
    return start(
        name, bind, services, Limits.of(maxFrameBytes, ioThreads), TransportSecurity.plaintext());
  }

  /**
   * Starts serving; with security, only peers with a certificate of the cluster get past the TLS
   * handshake. Throws if the port cannot be bound.
   */
  public static RpcServer start(
      String name,
      InetSocketAddress bind,
      Map<Service, RpcService> services,
      Limits limits,
      TransportSecurity security)
      throws InterruptedException {
    int ioThreads = limits.ioThreads();
    EventLoopGroup boss = NettyTransport.newGroup(name + "-accept", 1);
    EventLoopGroup workers = NettyTransport.newGroup(name + "-io", ioThreads);
    FrameBudget budget = new FrameBudget(limits.incompleteFrameBytes());
    try {
      Channel ch =
          new ServerBootstrap()
              .group(boss, workers)
              .channel(NettyTransport.serverChannel())
              .option(ChannelOption.SO_REUSEADDR, true)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, REPLY_WATER_MARK)
              .childOption(ChannelOption.ALLOCATOR, NettyTransport.allocator())
              .childHandler(
                  new RpcChannelInitializer(
                      name,
                      services,
                      limits,
                      budget,
                      security,
                      new ConnectionRegistry(name, security.revocations())))
              .bind(bind)
              .sync()
              .channel();
      return new RpcServer(name, boss, workers, ch, budget);
    } catch (RuntimeException | InterruptedException e) {
      boss.shutdownGracefully();
      workers.shutdownGracefully();
      throw e;
    }
  }

  /**
   * Unsent reply bytes past which a connection is not read (its peer is not taking its replies):
   * room for a few megabyte-sized replies, so a client reading ahead keeps the server busy.
   */
  static final WriteBufferWaterMark REPLY_WATER_MARK = new WriteBufferWaterMark(4 << 20, 8 << 20);

  /** Bytes reserved now for frames arriving in pieces (see {@link FrameBudget}). */
  public long incompleteFrameBytes() {
    return budget.reserved();
  }

  public int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    LOG.debug("{} stopped", name);
  }
}
