package io.tessera.meta.ratis;

import io.tessera.common.rpc.FrameBudget;
import io.tessera.common.rpc.FrameReservation;
import java.util.List;
import org.apache.ratis.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.ratis.thirdparty.io.netty.channel.Channel;
import org.apache.ratis.thirdparty.io.netty.channel.ChannelHandlerContext;
import org.apache.ratis.thirdparty.io.netty.handler.codec.ByteToMessageDecoder;
import org.apache.ratis.thirdparty.io.netty.handler.codec.CorruptedFrameException;
import org.apache.ratis.thirdparty.io.netty.handler.codec.TooLongFrameException;

/**
 * Cuts a Raft connection's bytes into messages the way Ratis frames them (a varint32 length, then
 * the message), with the checks Ratis's decoder lacks: a declared length past the maximum fails the
 * connection before anything is buffered, and a message arriving in pieces first reserves its
 * length from the server's {@link FrameBudget}, waiting for room when there is none. A connection
 * fails once: what it sends after an error is dropped unread. These are the rules of {@link
 * io.tessera.common.rpc.FrameDecoder}, kept in a class of its own because Ratis brings its own
 * (shaded) Netty.
 */
final class RaftFrameDecoder extends ByteToMessageDecoder {
  /** A varint32 takes at most five bytes. */
  private static final int MAX_LENGTH_BYTES = 5;

  private final int maxMessageBytes;
  private final FrameBudget budget;

  /** This connection's claim on the budget (made at its first message in pieces). */
  private FrameReservation reservation;

  private boolean failed;

  RaftFrameDecoder(int maxMessageBytes, FrameBudget budget) {
    this.maxMessageBytes = maxMessageBytes;
    this.budget = budget;
  }

  /** Whether part of a message has arrived and the rest has not. */
  boolean midFrame() {
    return internalBuffer().isReadable();
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    try {
      decodeMessage(ctx, in, out);
    } catch (CorruptedFrameException | TooLongFrameException e) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw e;
    }
  }

  private void decodeMessage(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    int start = in.readerIndex();
    long length = 0;
    int lengthBytes = 0;
    while (true) {
      if (lengthBytes == in.readableBytes()) {
        return; // the length itself is still arriving
      }
      byte b = in.getByte(start + lengthBytes);
      length |= (long) (b & 0x7f) << (7 * lengthBytes);
      lengthBytes++;
      if (b >= 0) {
        break;
      }
      if (lengthBytes == MAX_LENGTH_BYTES) {
        throw new CorruptedFrameException(
            "a Raft message length runs past " + MAX_LENGTH_BYTES + " bytes");
      }
    }
    if (length > maxMessageBytes) {
      throw new TooLongFrameException(
          "Raft message of "
              + length
              + " bytes exceeds the limit of "
              + maxMessageBytes
              + " bytes");
    }
    if (in.readableBytes() < lengthBytes + length) {
      reservation(ctx).incomplete(lengthBytes + length);
      return;
    }
    if (reservation != null) {
      reservation.complete();
    }
    in.skipBytes(lengthBytes);
    out.add(in.readRetainedSlice((int) length));
  }

  /** Reads on by itself for the rest of a message; not while it waits for room in the budget. */
  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
    if (reservation != null && reservation.waiting()) {
      ctx.fireChannelReadComplete();
      return;
    }
    super.channelReadComplete(ctx);
  }

  private FrameReservation reservation(ChannelHandlerContext ctx) {
    if (reservation == null) {
      Channel channel = ctx.channel();
      reservation =
          new FrameReservation(
              budget,
              () -> channel.config().setAutoRead(false),
              () -> {
                if (channel.isActive()) {
                  channel.config().setAutoRead(true);
                  channel.read();
                }
              });
    }
    return reservation;
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (reservation != null) {
      reservation.close();
    }
  }
}
