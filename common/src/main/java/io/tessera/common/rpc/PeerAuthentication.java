package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import io.tessera.common.security.Identity;
import java.nio.channels.ClosedChannelException;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * After a server connection's TLS handshake: records who the peer is (its certificate's identity)
 * on the channel, where every request of the connection finds it. A failed handshake closes the
 * connection with one line in the log.
 */
final class PeerAuthentication extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(PeerAuthentication.class);
  private static final RefusalLog REFUSALS = new RefusalLog(LOG);

  /** The authenticated peer of a server's connection. */
  static final AttributeKey<Identity> IDENTITY = AttributeKey.valueOf("tessera.identity");

  /** Why a connection that completed its handshake is refused all the same. */
  static final AttributeKey<String> REFUSED = AttributeKey.valueOf("tessera.refused");

  /** Most bytes held for a peer not yet accepted (a first request that came with the handshake). */
  private static final int MAX_EARLY_BYTES = 1 << 20;

  private final String port;
  private final ConnectionRegistry connections;

  /** What arrived before the handshake's outcome reached this handler, in order. */
  private final List<Object> early = new ArrayList<>();

  private int earlyBytes;

  PeerAuthentication(String port, ConnectionRegistry connections) {
    this.port = port;
    this.connections = connections;
  }

  /** The peer of an authenticated connection (null before its handshake, or without security). */
  static Identity of(Channel ch) {
    return ch.attr(IDENTITY).get();
  }

  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (!(evt instanceof SslHandshakeCompletionEvent done)) {
      super.userEventTriggered(ctx, evt);
      return;
    }
    Object remote = ctx.channel().remoteAddress();
    if (!done.isSuccess() && done.cause() instanceof ClosedChannelException) {
      // closed before the handshake ended: a port probe, or a plaintext caller already refused
      LOG.debug("{}: {} left before its TLS handshake ended", port, remote);
      ctx.close();
      return;
    }
    if (!done.isSuccess()) {
      REFUSALS.refused(
          RefusalLog.host(remote),
          "{}: refused a connection from {} in its TLS handshake: {}",
          port,
          remote,
          reason(done.cause()));
      ctx.close();
      return;
    }
    Identity id;
    try {
      Certificate[] chain =
          ctx.pipeline().get(SslHandler.class).engine().getSession().getPeerCertificates();
      id = Identity.of((X509Certificate) chain[0]);
    } catch (SSLPeerUnverifiedException | IllegalArgumentException e) {
      REFUSALS.refused(
          RefusalLog.host(remote),
          "{}: refused a connection from {}: {}",
          port,
          remote,
          e.getMessage());
      ctx.close();
      return;
    }
    if (connections.revoked(id)) {
      // a resumed TLS session skips the certificate check of the handshake: check here too, and
      // answer the peer's requests with why, rather than leave it retrying a dropped connection
      REFUSALS.refused(
          RefusalLog.host(remote),
          "{}: refused a connection from {}: the certificate of {} was revoked",
          port,
          remote,
          id.describe());
      ctx.channel().attr(REFUSED).set("the certificate of " + id.describe() + " was revoked");
      passOn(ctx);
      return;
    }
    ctx.channel().attr(IDENTITY).set(id);
    connections.add(ctx.channel(), id);
    LOG.debug("{}: {} connected from {}", port, id.describe(), remote);
    super.userEventTriggered(ctx, evt);
    passOn(ctx);
  }

  /**
   * Leaves the pipeline, passing on what arrived meanwhile: to the services for an accepted peer,
   * to the refusal of each request for one refused all the same.
   */
  private void passOn(ChannelHandlerContext ctx) {
    List<Object> held = List.copyOf(early);
    early.clear();
    ctx.pipeline().remove(this);
    held.forEach(ctx::fireChannelRead);
    if (!held.isEmpty()) {
      ctx.fireChannelReadComplete();
    }
  }

  /**
   * Bytes that arrive before the handshake's outcome (TLS 1.3 lets a client send its first request
   * with its last handshake message, and the TLS handler may pass them on before it reports the
   * handshake done) wait here: they reach the services once the peer is accepted, and are dropped
   * if it is refused.
   */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    earlyBytes += msg instanceof ByteBuf b ? b.readableBytes() : 0;
    early.add(msg);
    if (earlyBytes > MAX_EARLY_BYTES) {
      REFUSALS.refused(
          RefusalLog.host(ctx.channel().remoteAddress()),
          "{}: closing a connection from {}: it sent more than {} bytes before its handshake ended",
          port,
          ctx.channel().remoteAddress(),
          MAX_EARLY_BYTES);
      ctx.close();
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    // held until the peer is accepted
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    early.forEach(ReferenceCountUtil::release); // anything not passed on (a closing connection)
    early.clear();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    early.forEach(ReferenceCountUtil::release);
    early.clear();
    super.channelInactive(ctx);
  }

  /** The innermost cause's message: what a TLS failure was in words, without class names. */
  static String reason(Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
  }
}
