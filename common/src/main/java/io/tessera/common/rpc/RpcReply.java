package io.tessera.common.rpc;

import com.google.protobuf.MessageLite;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/** A response: a schema message and an optional raw payload (ownership passes to the wire). */
public record RpcReply(byte[] header, ByteBuf payload) {
  public static RpcReply of(MessageLite message) {
    return new RpcReply(message.toByteArray(), Unpooled.EMPTY_BUFFER);
  }

  public static RpcReply of(MessageLite message, ByteBuf payload) {
    return new RpcReply(message.toByteArray(), payload);
  }
}
