package io.tessera.common.rpc;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.tessera.common.security.TransportSecurity;
import java.io.Closeable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Connections to many peers, one per address, opened on first use and reopened after they break.
 * Thread-safe; share one per process.
 */
public final class RpcClientPool implements Closeable {
  private final EventLoopGroup group;
  private final int maxFrameBytes;
  private final long callTimeoutMillis;
  private final int connectTimeoutMillis;
  private final long silenceMillis;
  private final TransportSecurity security;
  private final ConcurrentHashMap<String, CompletableFuture<RpcConnection>> connections =
      new ConcurrentHashMap<>();
  private volatile boolean closed;

  /** A pool without security (tests). */
  public RpcClientPool(
      String name,
      int ioThreads,
      int maxFrameBytes,
      long callTimeoutMillis,
      int connectTimeoutMillis) {
    this(
        name,
        ioThreads,
        maxFrameBytes,
        callTimeoutMillis,
        connectTimeoutMillis,
        RpcConnection.DEFAULT_SILENCE_MILLIS,
        TransportSecurity.plaintext());
  }

  /**
   * {@code silenceMillis}: how long a peer owing answers may stay silent (see {@link
   * RpcConnection}); {@code security}: with it, every connection is mutual TLS and its peer must be
   * a server of the cluster.
   */
  public RpcClientPool(
      String name,
      int ioThreads,
      int maxFrameBytes,
      long callTimeoutMillis,
      int connectTimeoutMillis,
      long silenceMillis,
      TransportSecurity security) {
    this.security = security;
    this.group = NettyTransport.newGroup(name, ioThreads);
    this.maxFrameBytes = maxFrameBytes;
    this.callTimeoutMillis = callTimeoutMillis;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.silenceMillis = silenceMillis;
  }

  /**
   * Sends one request to the peer at host:port; the answer's frame is the caller's to release. A
   * caller may give up on the future (orTimeout, cancel): an answer arriving later is released.
   */
  public CompletableFuture<Frame> call(
      String address, Service service, byte[] header, ByteBuf payload) {
    if (closed) {
      if (payload != null) {
        payload.release();
      }
      return CompletableFuture.failedFuture(new ClientClosedException());
    }
    CompletableFuture<Frame> answer = new CompletableFuture<>();
    send(address, service, header, payload, true, answer);
    return answer;
  }

  /**
   * Sends on the pooled connection. A call that goes out on an idle connection keeps its payload
   * until answered, so it can be sent once more should the peer have closed that connection for
   * idleness just as the call went out (a busy connection is never closed so).
   */
  private void send(
      String address,
      Service service,
      byte[] header,
      ByteBuf payload,
      boolean mayResend,
      CompletableFuture<Frame> answer) {
    connection(address, service)
        .whenComplete(
            (c, err) -> {
              if (err != null) {
                release(payload);
                answer.completeExceptionally(Failures.cause(err));
                return;
              }
              boolean keep = mayResend && c.idle();
              ByteBuf sent = keep && payload != null ? payload.retainedDuplicate() : payload;
              c.call(service, header, sent)
                  .whenComplete(
                      (frame, failed) -> {
                        if (keep
                            && failed instanceof PeerUnreachableException p
                            && p.unread()
                            && !answer.isDone()) {
                          send(address, service, header, payload, false, answer);
                          return;
                        }
                        if (keep) {
                          release(payload);
                        }
                        if (failed != null) {
                          answer.completeExceptionally(failed);
                        } else if (!answer.complete(frame)) {
                          frame.release(); // the caller gave up first: nobody else will
                        }
                      });
            });
  }

  private static void release(ByteBuf payload) {
    if (payload != null) {
      payload.release();
    }
  }

  /**
   * The pooled connection to {@code address}; a new one to a data port ({@code service} DATA) goes
   * on in clear after its handshake where the process's settings ask for it.
   */
  private CompletableFuture<RpcConnection> connection(String address, Service service) {
    CompletableFuture<RpcConnection> existing = connections.get(address);
    if (existing != null
        && (!existing.isDone()
            || (!existing.isCompletedExceptionally() && existing.join().isOpen()))) {
      return existing;
    }
    CompletableFuture<RpcConnection> fresh = new CompletableFuture<>();
    boolean installed =
        existing == null
            ? connections.putIfAbsent(address, fresh) == null
            : connections.replace(address, existing, fresh);
    if (!installed) {
      return connection(address, service);
    }
    connect(address, security.clearDataFrames() && service == Service.DATA, fresh);
    return fresh;
  }

  private void connect(
      String address, boolean clearFrames, CompletableFuture<RpcConnection> result) {
    HostPort hp;
    try {
      hp = HostPort.parse(address);
    } catch (IllegalArgumentException e) {
      result.completeExceptionally(e);
      return;
    }
    HostPort at = hp;
    RpcConnection.ResponseHandler handler = new RpcConnection.ResponseHandler();
    ChannelFuture cf =
        new Bootstrap()
            .group(group)
            .channel(NettyTransport.clientChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.ALLOCATOR, NettyTransport.allocator())
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
            .handler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    if (security.enabled()) {
                      ch.pipeline()
                          .addLast(
                              "tls",
                              security
                                  .clientContext()
                                  .newHandler(ch.alloc(), at.host(), at.port()));
                    }
                    ch.pipeline()
                        .addLast(new FrameDecoder(maxFrameBytes))
                        .addLast(new FrameEncoder(maxFrameBytes))
                        .addLast(handler);
                  }
                })
            .connect(hp.host(), hp.port());
    cf.addListener(
        done -> {
          if (!done.isSuccess()) {
            result.completeExceptionally(
                PeerUnreachableException.notConnected(address, done.cause()));
            return;
          }
          SslHandler tls = cf.channel().pipeline().get(SslHandler.class);
          if (tls == null) {
            connected(address, cf.channel(), handler, result);
            return;
          }
          tls.handshakeFuture()
              .addListener(
                  shaken -> {
                    if (shaken.isSuccess() && clearFrames) {
                      ClearAfterHandshake.ask(cf.channel(), tls, address, connectTimeoutMillis)
                          .whenComplete(
                              (clear, refused) -> {
                                if (refused == null) {
                                  connected(address, cf.channel(), handler, result);
                                } else {
                                  result.completeExceptionally(refused);
                                }
                              });
                    } else if (shaken.isSuccess()) {
                      connected(address, cf.channel(), handler, result);
                    } else {
                      cf.channel().close();
                      result.completeExceptionally(TlsFailures.handshake(address, shaken.cause()));
                    }
                  });
        });
  }

  private void connected(
      String address,
      Channel channel,
      RpcConnection.ResponseHandler handler,
      CompletableFuture<RpcConnection> result) {
    RpcConnection c = new RpcConnection(address, channel, callTimeoutMillis, silenceMillis);
    handler.bind(c);
    result.complete(c);
  }

  /** Drops the connection to an address so the next call reconnects. */
  public void disconnect(String address) {
    CompletableFuture<RpcConnection> c = connections.remove(address);
    if (c != null) {
      c.thenAccept(RpcConnection::close);
    }
  }

  @Override
  public void close() {
    closed = true;
    connections.values().forEach(c -> c.thenAccept(RpcConnection::close));
    connections.clear();
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
  }
}
