package io.tessera.common.rpc;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.DecoderException;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.Identity;
import io.tessera.common.security.Revocations;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each request frame to its protocol's service and writes the reply with the same request id.
 * A connection that sends something unframeable is closed; others go on.
 */
final class RpcServerHandler extends SimpleChannelInboundHandler<Frame> {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServerHandler.class);
  private final Map<Service, RpcService> services;
  private final Revocations revocations;
  private final AtomicInteger answering = new AtomicInteger();

  /** The revocation list's version this connection's peer was last checked against. */
  private long checkedVersion;

  /**
   * @param revocations the port requires an authenticated peer (null: it does not), and serves no
   *     request of a peer this list revokes, even on a connection not yet closed
   */
  RpcServerHandler(Map<Service, RpcService> services, Revocations revocations) {
    super(false);
    this.services = services;
    this.revocations = revocations;
  }

  /** Why this connection's peer may not be served, or null. */
  private String refusal(ChannelHandlerContext ctx, Identity identity) {
    if (identity == null) {
      return ctx.channel().attr(PeerAuthentication.REFUSED).get();
    }
    long version = revocations.version();
    if (version != checkedVersion) {
      if (revocations.revokes(identity)) {
        return "the certificate of " + identity.describe() + " was revoked";
      }
      checkedVersion = version;
    }
    return null;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, Frame frame) {
    if (frame.kind() == Frame.PING) {
      frame.release();
      ctx.writeAndFlush(Frame.pong(frame.requestId()));
      return;
    }
    Identity identity = PeerAuthentication.of(ctx.channel());
    RpcService service = services.get(frame.service());
    String refused = revocations == null ? null : refusal(ctx, identity);
    if (revocations != null && (identity == null || refused != null)) {
      frame.release();
      if (refused == null || service == null || frame.kind() != Frame.REQUEST) {
        ctx.close();
        return;
      }
      RpcReply no =
          service.errorReply(new TesseraException(StatusProto.PERMISSION_DENIED, refused));
      ctx.writeAndFlush(
              Frame.response(frame.requestId(), frame.service(), no.header(), no.payload()))
          .addListener(ChannelFutureListener.CLOSE);
      return;
    }
    if (frame.kind() != Frame.REQUEST || service == null) {
      frame.release();
      LOG.warn(
          "Closing connection from {}: it sent a {} frame for service {} which this server does not serve",
          ctx.channel().remoteAddress(),
          frame.kind() == Frame.REQUEST ? "request" : "response",
          frame.service());
      ctx.close();
      return;
    }
    CompletableFuture<RpcReply> reply;
    answering.incrementAndGet();
    try {
      reply =
          service.handle(
              new RpcCall(
                  frame.header(), frame.payload(), ctx.channel().remoteAddress(), identity));
    } catch (RuntimeException e) {
      reply = CompletableFuture.failedFuture(e);
    }
    reply.whenComplete(
        (r, err) -> {
          answering.decrementAndGet();
          RpcReply out = err == null ? r : service.errorReply(err);
          if (err != null) {
            LOG.warn(
                "{} request from {} failed: {}",
                frame.service(),
                ctx.channel().remoteAddress(),
                err.toString());
          }
          if (!ctx.channel().isActive()) {
            out.payload().release();
            return;
          }
          ctx.writeAndFlush(
              Frame.response(frame.requestId(), frame.service(), out.header(), out.payload()));
        });
  }

  /** Whether a request of this connection is still being answered. */
  boolean answering() {
    return answering.get() > 0;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof DecoderException && cause.getCause() instanceof SSLException) {
      // a refused or broken TLS handshake: PeerAuthentication said so
      LOG.debug("TLS failure on {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
    } else if (cause instanceof DecoderException) {
      LOG.warn(
          "Closing connection from {}: malformed frame ({})",
          ctx.channel().remoteAddress(),
          cause.getCause() != null ? cause.getCause().getMessage() : cause.getMessage());
    } else if (cause instanceof IOException) {
      LOG.debug("Connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    } else {
      LOG.warn(
          "Closing connection from {} after an unexpected error",
          ctx.channel().remoteAddress(),
          cause);
    }
    ctx.close();
  }
}
