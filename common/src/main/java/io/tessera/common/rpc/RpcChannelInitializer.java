package io.tessera.common.rpc;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.tessera.common.security.TransportSecurity;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Server pipeline: with security, TLS first (a peer without a certificate of the cluster is dropped
 * in the handshake, before any frame is read), the record of who the peer is, and (on data ports
 * that allow it) the switch to clear frames a client may ask for after the handshake; then idle and
 * stall timeouts, the beat that tells waiting clients the server is alive, frame decoder (within
 * the server's budget of incomplete frames), frame encoder, dispatch to the protocol's service.
 */
final class RpcChannelInitializer extends ChannelInitializer<SocketChannel> {
  private final String name;
  private final Map<Service, RpcService> services;
  private final RpcServer.Limits limits;
  private final FrameBudget budget;
  private final TransportSecurity security;
  private final ConnectionRegistry connections;

  RpcChannelInitializer(
      String name,
      Map<Service, RpcService> services,
      RpcServer.Limits limits,
      FrameBudget budget,
      TransportSecurity security,
      ConnectionRegistry connections) {
    this.name = name;
    this.services = services;
    this.limits = limits;
    this.budget = budget;
    this.security = security;
    this.connections = connections;
  }

  @Override
  protected void initChannel(SocketChannel ch) {
    if (security.enabled()) {
      ch.pipeline()
          .addLast("plaintext-refusal", new PlaintextRefusal(name, services))
          .addLast("tls", security.serverContext().newHandler(ch.alloc()))
          .addLast("authenticate", new PeerAuthentication(name, connections))
          .addLast(
              "data-protection",
              new ClearAfterHandshake.Server(
                  name, security.clearDataFrames() && services.containsKey(Service.DATA)));
    }
    ch.pipeline()
        .addLast(
            "timeouts",
            new IdleStateHandler(
                limits.stalledFrame().toMillis(),
                0,
                limits.idle().toMillis(),
                TimeUnit.MILLISECONDS))
        .addLast("guard", new ConnectionGuard())
        .addLast("busy-beat", new BusyBeat())
        .addLast("frame-decoder", new FrameDecoder(limits.maxFrameBytes(), budget))
        .addLast("frame-encoder", new FrameEncoder(limits.maxFrameBytes()))
        .addLast(
            "dispatch",
            new RpcServerHandler(
                services,
                security.enabled() ? security.revocations() : null,
                limits.requestsPerConnection()));
  }
}
