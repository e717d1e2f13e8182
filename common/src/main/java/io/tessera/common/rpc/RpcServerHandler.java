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
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each request frame to its protocol's service and writes the reply with the same request id.
 * A connection that sends something unframeable is closed; others go on.
 *
 * <p>Back-pressure: a connection with {@code requestsPerConnection} requests in progress, or whose
 * replies pile up unsent (its peer does not take them: Netty's writability), is not read until it
 * is below both again. Its further requests wait in TCP at the sender, not in the server's queues
 * (the data server's workers, the meta group's batcher, a proxy's application queues), so what one
 * connection can make a server hold is bounded.
 */
final class RpcServerHandler extends SimpleChannelInboundHandler<Frame> {
  private static final Logger LOG = LoggerFactory.getLogger(RpcServerHandler.class);
  private final Map<Service, RpcService> services;
  private final Revocations revocations;
  private final AtomicInteger answering = new AtomicInteger();
  private final int requestsPerConnection;

  /** Requests read past the connection's limits, in order (event loop only). */
  private final ArrayDeque<Frame> parked = new ArrayDeque<>();

  /** The revocation list's version this connection's peer was last checked against. */
  private long checkedVersion;

  /**
   * @param revocations the port requires an authenticated peer (null: it does not), and serves no
   *     request of a peer this list revokes, even on a connection not yet closed
   */
  RpcServerHandler(
      Map<Service, RpcService> services, Revocations revocations, int requestsPerConnection) {
    super(false);
    this.services = services;
    this.revocations = revocations;
    this.requestsPerConnection = requestsPerConnection;
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
    if (!parked.isEmpty() || !belowLimits(ctx)) {
      // one socket read can hold thousands of small requests: those past the limit wait here
      parked.add(frame);
      ReadGate.of(ctx.channel()).close(ReadGate.Reason.REPLIES);
      return;
    }
    serve(ctx, frame);
  }

  private boolean belowLimits(ChannelHandlerContext ctx) {
    return ctx.channel().isWritable() && answering.get() < requestsPerConnection;
  }

  private void serve(ChannelHandlerContext ctx, Frame frame) {
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
    if (answering.incrementAndGet() >= requestsPerConnection) {
      ReadGate.of(ctx.channel()).close(ReadGate.Reason.REPLIES);
    }
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
          RpcReply out = err == null ? r : service.errorReply(err);
          if (err != null) {
            LOG.warn(
                "{} request from {} failed: {}",
                frame.service(),
                ctx.channel().remoteAddress(),
                err.toString());
          }
          if (!ctx.channel().isActive()) {
            answering.decrementAndGet();
            out.payload().release();
            return;
          }
          Frame response =
              Frame.response(frame.requestId(), frame.service(), out.header(), out.payload());
          // one event-loop task writes the reply and lets parked requests in; the request counts
          // as in progress until its reply is in the connection's outbound buffer, where
          // writability sees it (a reply waiting for the event loop is memory too)
          Runnable send =
              () -> {
                ctx.writeAndFlush(response);
                answering.decrementAndGet();
                readOnIfTaken(ctx);
              };
          if (ctx.executor().inEventLoop()) {
            send.run();
          } else {
            ctx.executor().execute(send);
          }
        });
  }

  /**
   * Serves the requests that waited, then reads the connection again, as far as its limits allow
   * (see the class comment).
   */
  private void readOnIfTaken(ChannelHandlerContext ctx) {
    while (!parked.isEmpty() && belowLimits(ctx)) {
      serve(ctx, parked.poll());
    }
    if (parked.isEmpty() && belowLimits(ctx)) {
      ReadGate.of(ctx.channel()).open(ReadGate.Reason.REPLIES);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    for (Frame f; (f = parked.poll()) != null; ) {
      f.release();
    }
    super.channelInactive(ctx);
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    if (ctx.channel().isWritable()) {
      readOnIfTaken(ctx);
    } else {
      ReadGate.of(ctx.channel()).close(ReadGate.Reason.REPLIES);
    }
    super.channelWritabilityChanged(ctx);
  }

  /** Whether a request of this connection is still being answered, or waits to be. */
  boolean answering() {
    return answering.get() > 0 || !parked.isEmpty();
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
