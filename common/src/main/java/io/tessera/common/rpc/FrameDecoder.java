package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * Cuts the byte stream into {@link Frame}s, checking every length before trusting it. A
 * frame that cannot be valid closes the connection with an exception naming what was
 * wrong; nothing larger than the maximum is ever buffered.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
  private final int maxFrameBytes;

  public FrameDecoder(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
    // Frames of megabytes arrive in many socket reads; keeping those reads as components
    // (instead of copying them into one growing buffer) spares a copy of every payload byte.
    setCumulator(COMPOSITE_CUMULATOR);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (in.readableBytes() < 4) {
      return;
    }
    int start = in.readerIndex();
    int length = in.getInt(start);
    if (length < Frame.FIXED_BYTES) {
      throw new CorruptedFrameException("frame length " + length + " is shorter than a frame header");
    }
    if (length > maxFrameBytes) {
      throw new TooLongFrameException(
          "frame of " + length + " bytes exceeds the limit of " + maxFrameBytes + " bytes");
    }
    if (in.readableBytes() < 4 + length) {
      return;
    }
    long requestId = in.getLong(start + 4);
    byte kind = in.getByte(start + 12);
    byte serviceCode = in.getByte(start + 13);
    int headerLength = in.getInt(start + 14);
    if (kind < Frame.REQUEST || kind > Frame.PONG) {
      throw new CorruptedFrameException("unknown frame kind " + kind);
    }
    Service service = Service.fromCode(serviceCode);
    if (service == null) {
      throw new CorruptedFrameException("unknown service code " + serviceCode);
    }
    if (headerLength < 0 || headerLength > length - Frame.FIXED_BYTES
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
}
