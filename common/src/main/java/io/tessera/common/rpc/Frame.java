package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;

/**
 * One unit on the wire: a schema message (the header) followed by raw payload bytes.
 *
 * <pre>
 * int32 length         bytes after this field, at most the configured maximum frame size
 * int64 requestId      pairs a response with its request on a multiplexed connection
 * int8  kind           {@link #REQUEST}, {@link #RESPONSE}, {@link #PING}, {@link #PONG}, {@link #GOAWAY}
 * int8  service        which protocol the header belongs to ({@link Service})
 * int32 headerLength   at most length - {@link #FIXED_BYTES} and {@link #MAX_HEADER_BYTES}
 * header bytes         a protobuf message of that protocol
 * payload bytes        the rest: bulk data, never copied into a message
 * </pre>
 *
 * The payload is reference counted; whoever takes a frame must {@link #release()} it.
 */
public record Frame(long requestId, byte kind, Service service, byte[] header, ByteBuf payload) {
  public static final byte REQUEST = 0;
  public static final byte RESPONSE = 1;

  /**
   * Liveness probe of a client waiting for answers; the server's network thread answers it at once
   * with a {@link #PONG} of the same request id (service code and header are ignored).
   */
  public static final byte PING = 2;

  /**
   * Answer to a {@link #PING}; also sent unasked (request id 0), every second, by a server that
   * owes the connection an answer, so a client whose ping is queued behind its own requests hears
   * it.
   */
  public static final byte PONG = 3;

  /**
   * The server closes this connection for idleness and reads nothing more from it: a request still
   * unanswered was never read and may be sent again elsewhere (request id and header are ignored).
   */
  public static final byte GOAWAY = 4;

  /** requestId + kind + service + headerLength. */
  public static final int FIXED_BYTES = 8 + 1 + 1 + 4;

  public static final int MAX_HEADER_BYTES = 1 << 20;

  public Frame {
    if (payload == null) {
      payload = Unpooled.EMPTY_BUFFER;
    }
  }

  public static Frame request(long requestId, Service service, byte[] header, ByteBuf payload) {
    return new Frame(requestId, REQUEST, service, header, payload);
  }

  public static Frame response(long requestId, Service service, byte[] header, ByteBuf payload) {
    return new Frame(requestId, RESPONSE, service, header, payload);
  }

  public static Frame ping(long requestId) {
    return new Frame(requestId, PING, Service.META, new byte[0], null);
  }

  public static Frame pong(long requestId) {
    return new Frame(requestId, PONG, Service.META, new byte[0], null);
  }

  public static Frame goAway() {
    return new Frame(0, GOAWAY, Service.META, new byte[0], null);
  }

  /**
   * The frame's bytes (the payload not copied, its ownership passed to the result); the caller
   * checks the size first.
   */
  public static ByteBuf encode(ByteBufAllocator alloc, Frame frame) {
    ByteBuf head = alloc.buffer(4 + FIXED_BYTES + frame.header().length);
    head.writeInt((int) frame.bodyLength())
        .writeLong(frame.requestId())
        .writeByte(frame.kind())
        .writeByte(frame.service().code())
        .writeInt(frame.header().length)
        .writeBytes(frame.header());
    if (!frame.payload().isReadable()) {
      frame.release();
      return head;
    }
    CompositeByteBuf whole = alloc.compositeBuffer(2);
    whole.addComponents(true, head, frame.payload());
    return whole;
  }

  /** Bytes after the length field. */
  public long bodyLength() {
    return (long) FIXED_BYTES + header.length + payload.readableBytes();
  }

  public void release() {
    payload.release();
  }
}
