package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import java.net.SocketAddress;

/** A request as a service sees it: schema bytes, raw payload, and who sent it. */
public record RpcCall(byte[] header, ByteBuf payload, SocketAddress remote) {}
