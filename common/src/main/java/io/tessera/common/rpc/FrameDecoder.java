package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Cuts the byte stream into {@link Frame}s, checking every length before trusting it. A frame that
 * cannot be valid closes the connection with an exception naming what was wrong (once: what the
 * connection sends after that is dropped unread); nothing larger than the maximum is ever buffered.
 * On a server, a frame that arrives in pieces first reserves its length from the server's {@link
 * FrameBudget}, and waits for room when there is none.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  private final int maxFrameBytes;
  private final FrameBudget budget;

  /** This connection's claim on the budget (null without a budget, or before the first frame). */
  private FrameReservation reservation;

  private boolean failed;

  /** A client's decoder: no budget. */
  public FrameDecoder(int maxFrameBytes) {
    this(maxFrameBytes, null);
  }

  public FrameDecoder(int maxFrameBytes, FrameBudget budget) {
    this.maxFrameBytes = maxFrameBytes;
    this.budget = budget;
    // Frames of megabytes arrive in many socket reads; keeping those reads as components
    // (instead of copying them into one growing buffer) spares a copy of every payload byte.
    setCumulator(COMPOSITE_CUMULATOR);
  }

  /** Whether part of a frame has arrived and the rest has not (a connection stuck mid-frame). */
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
      decodeFrame(ctx, in, out);
    } catch (CorruptedFrameException | TooLongFrameException e) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw e;
    }
  }

  private void decodeFrame(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < 4) {
      return;
    }
    int start = in.readerIndex();
    int length = in.getInt(start);
    if (length < Frame.FIXED_BYTES) {
      throw new CorruptedFrameException(
          "frame length " + length + " is shorter than a frame header");
    }
    if (length > maxFrameBytes) {
      throw new TooLongFrameException(
          "frame of " + length + " bytes exceeds the limit of " + maxFrameBytes + " bytes");
    }
    if (in.readableBytes() < 4 + length) {
      if (budget != null) {
        reservation(ctx).incomplete(4L + length);
      }
      return;
    }
    if (reservation != null) {
      reservation.complete();
    }
    long requestId = in.getLong(start + 4);
    byte kind = in.getByte(start + 12);
    byte serviceCode = in.getByte(start + 13);
    int headerLength = in.getInt(start + 14);
    if (kind < Frame.REQUEST || kind > Frame.GOAWAY) {
      throw new CorruptedFrameException("unknown frame kind " + kind);
    }
    Service service = Service.fromCode(serviceCode);
    if (service == null) {
      throw new CorruptedFrameException("unknown service code " + serviceCode);
    }
    if (headerLength < 0
        || headerLength > length - Frame.FIXED_BYTES
        || headerLength > Frame.MAX_HEADER_BYTES) {
      throw new CorruptedFrameException(
          "header length " + headerLength + " does not fit a frame of " + length + " bytes");
    }
    byte[] header = new byte[headerLength];
    in.getBytes(start + 4 + Frame.FIXED_BYTES, header);
    int payloadLength = length - Frame.FIXED_BYTES - headerLength;
    ByteBuf payload = in.retainedSlice(start + 4 + Frame.FIXED_BYTES + headerLength, payloadLength);
    in.readerIndex(start + 4 + length);
    out.add(new Frame(requestId, kind, service, header, payload));
  }

  /**
   * A decoder reads on by itself while it waits for the rest of a frame, even with reads turned
   * off; not while the frame waits for room in the budget.
   */
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
              () -> ReadGate.of(channel).close(ReadGate.Reason.ROOM),
              () -> ReadGate.of(channel).open(ReadGate.Reason.ROOM));
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
