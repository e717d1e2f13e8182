package io.tessera.meta.ratis;

import java.nio.ByteBuffer;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Our messages (plain protobuf) in and out of Ratis (shaded protobuf) without copying: serialized
 * bytes are wrapped, never copied, and parsed from a read-only view of Ratis's bytes.
 *
 * <p>Why not compile metalog.proto against the shaded protobuf instead: its entries carry
 * meta.proto and heartbeat messages, which the client and data servers use with plain protobuf, so
 * every shared message would be generated twice. Wrapping costs one serialization, as shading
 * would.
 */
public final class LogBytes {
  private LogBytes() {}

  /** A Ratis message over bytes nobody changes afterwards. */
  public static Message message(byte[] serialized) {
    return Message.valueOf(UnsafeByteOperations.unsafeWrap(serialized));
  }

  /** The bytes of a Ratis reply's message, to parse from. */
  public static ByteBuffer content(RaftClientReply reply) {
    return reply.getMessage().getContent().asReadOnlyByteBuffer();
  }

  /** The bytes of a Ratis message, to parse from. */
  public static ByteBuffer content(Message message) {
    return message.getContent().asReadOnlyByteBuffer();
  }
}
