package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslCloseCompletionEvent;
import io.netty.handler.ssl.SslHandler;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Data connections with {@code tessera.security.data-protection=authentication}: after the mutual
 * TLS handshake, both ends close TLS cleanly (each sends its close_notify) and the same TCP
 * connection carries frames in clear. The client asks, by sending its close_notify before any
 * request; the server answers with its own, leaves TLS and confirms in clear; the client sends its
 * first request only after that confirmation, so neither side ever reads clear bytes through TLS or
 * TLS records as frames. A server that does not allow it closes the connection instead.
 */
final class ClearAfterHandshake {
  private static final Logger LOG = LoggerFactory.getLogger(ClearAfterHandshake.class);

  private ClearAfterHandshake() {}

  /**
   * The client's side, once its handshake succeeded: completes when the server confirmed the
   * connection is in clear, fails when the server closes it instead or says nothing for {@code
   * timeoutMillis}.
   */
  static CompletableFuture<Void> ask(
      Channel ch, SslHandler tls, String address, long timeoutMillis) {
    CompletableFuture<Void> clear = new CompletableFuture<>();
    ch.eventLoop()
        .schedule(
            () -> {
              if (clear.completeExceptionally(
                  new PeerUnreachableException(
                      address,
                      "no answer in "
                          + timeoutMillis
                          + " ms when asked for clear data frames after the handshake"))) {
                ch.close();
              }
            },
            timeoutMillis,
            TimeUnit.MILLISECONDS);
    ch.pipeline()
        .addAfter(
            ch.pipeline().context(tls).name(),
            "clear-confirmation",
            new Confirmation(address, clear));
    tls.sslCloseFuture()
        .addListener(
            closed -> {
              if (closed.isSuccess() && ch.isActive()) {
                ch.pipeline().remove(tls); // what arrived after the close_notify goes on in clear
              } else {
                ch.close();
              }
            });
    tls.closeOutbound();
    return clear;
  }

  /**
   * What the server sends in clear once it left TLS: a server that does not allow clear frames
   * answers the close_notify too (TLS does so by itself), then closes instead of sending it.
   */
  private static final byte[] CONFIRMATION = "TSRCLEAR".getBytes(StandardCharsets.US_ASCII);

  /** Waits on the client for the server's confirmation, then leaves the pipeline. */
  private static final class Confirmation extends ByteToMessageDecoder {
    private final String address;
    private final CompletableFuture<Void> clear;

    Confirmation(String address, CompletableFuture<Void> clear) {
      this.address = address;
      this.clear = clear;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      if (in.readableBytes() < CONFIRMATION.length) {
        return;
      }
      byte[] got = new byte[CONFIRMATION.length];
      in.readBytes(got);
      if (!Arrays.equals(got, CONFIRMATION)) {
        ctx.close();
        clear.completeExceptionally(
            new PeerUnreachableException(
                address, "the server did not confirm clear data frames after the handshake"));
        return;
      }
      ctx.pipeline().remove(this); // bytes after the confirmation go on to the frame decoder
      clear.complete(null);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
      clear.completeExceptionally(
          new PeerUnreachableException(
              address,
              "the server closed the connection when asked for clear data frames after the"
                  + " handshake: it requires encrypted ones"
                  + " (tessera.security.data-protection=privacy there; set the same on this"
                  + " client)"));
      super.channelInactive(ctx);
    }
  }

  /**
   * The server's side, right after the TLS handler: answers a client's close_notify by leaving TLS
   * where clear frames are allowed (a data port set to authentication), else closes the connection.
   */
  static final class Server extends ChannelInboundHandlerAdapter {
    private final String port;
    private final boolean allowed;

    Server(String port, boolean allowed) {
      this.port = port;
      this.allowed = allowed;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
      if (!(evt instanceof SslCloseCompletionEvent closed)) {
        super.userEventTriggered(ctx, evt);
        return;
      }
      if (!closed.isSuccess()) {
        ctx.close();
        return;
      }
      if (!allowed) {
        // a peer closing its connection says close_notify first; one asking for clear frames here
        // learns the answer from the close (see ask)
        LOG.debug("{}: {} closed its TLS session", port, ctx.channel().remoteAddress());
        ctx.close();
        return;
      }
      SslHandler tls = ctx.pipeline().get(SslHandler.class);
      tls.closeOutbound()
          .addListener(
              sent -> {
                if (!sent.isSuccess() || !ctx.channel().isActive()) {
                  ctx.close();
                  return;
                }
                ctx.pipeline().remove(tls);
                ctx.writeAndFlush(Unpooled.wrappedBuffer(CONFIRMATION));
                ctx.pipeline().remove(this);
              });
    }
  }
}
