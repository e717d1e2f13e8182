package io.tessera.nfs.oncrpc;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.tessera.common.rpc.NettyTransport;
import java.io.Closeable;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An ONC RPC server over TCP (RFC 5531) on Netty: record marking with bounded records, call
 * headers, AUTH_NONE and AUTH_UNIX, and the accepted and denied replies. Programs run on a pool of
 * worker threads; a connection with too many calls in progress is not read from until some finish.
 */
public final class RpcServer implements Closeable {
  /** Limits that keep one client from taking the gateway's memory or threads. */
  public record Limits(
      int maxRecordBytes, int callsPerConnection, int workers, long heldCallBytes) {}

  /** A connection silent this long is closed, as Linux's NFS server closes them (6 minutes). */
  static final int IDLE_SECONDS = 360;

  private final Map<Integer, RpcProgram> programs = new HashMap<>();
  private final Limits limits;
  private final EventLoopGroup group;
  private final ThreadPoolExecutor workers;
  private final List<Channel> listeners = new ArrayList<>();
  private final CallBudget budget;

  public RpcServer(List<RpcProgram> served, Limits limits) {
    for (RpcProgram p : served) {
      programs.put(p.number(), p);
    }
    this.limits = limits;
    this.budget = new CallBudget(limits.heldCallBytes());
    // one event-loop thread serves every connection: the call budget needs no locks
    this.group = NettyTransport.newGroup("nfs-io", 1);
    AtomicInteger n = new AtomicInteger();
    this.workers =
        new ThreadPoolExecutor(
            limits.workers(),
            limits.workers(),
            60,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, "nfs-worker-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
  }

  /** Listens on {@code address} (port 0: any free port) and returns where it listens. */
  public InetSocketAddress listen(InetSocketAddress address) throws InterruptedException {
    Channel ch =
        new ServerBootstrap()
            .group(group)
            .channel(NettyTransport.serverChannel())
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.ALLOCATOR, NettyTransport.allocator())
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel c) {
                    c.pipeline()
                        .addLast(new IdleStateHandler(0, 0, IDLE_SECONDS))
                        .addLast(new RecordDecoder(limits.maxRecordBytes()))
                        .addLast(
                            new CallHandler(
                                programs, workers, limits.callsPerConnection(), budget));
                  }
                })
            .bind(address)
            .sync()
            .channel();
    listeners.add(ch);
    return (InetSocketAddress) ch.localAddress();
  }

  ExecutorService workers() {
    return workers;
  }

  @Override
  public void close() {
    listeners.forEach(c -> c.close().awaitUninterruptibly());
    group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly();
    workers.shutdownNow();
  }
}
