package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.tessera.common.security.Identity;
import java.net.SocketAddress;

/**
 * A request as a service sees it: schema bytes, raw payload, who sent it from where. {@code
 * identity} is the caller's certificate's, checked in the TLS handshake; null when the process runs
 * without security (tessera.security=off), where callers are who they say.
 */
public record RpcCall(byte[] header, ByteBuf payload, SocketAddress remote, Identity identity) {
  /** A call from a caller the transport did not authenticate (security off). */
  public RpcCall(byte[] header, ByteBuf payload, SocketAddress remote) {
    this(header, payload, remote, null);
  }
}
