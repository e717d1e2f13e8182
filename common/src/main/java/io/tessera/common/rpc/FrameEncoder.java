package io.tessera.common.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import java.util.List;

/** Writes a {@link Frame}: a small fixed header, the schema message, then the payload uncopied. */
public final class FrameEncoder extends MessageToMessageEncoder<Frame> {
  private final int maxFrameBytes;

  public FrameEncoder(int maxFrameBytes) {
    this.maxFrameBytes = maxFrameBytes;
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, Frame frame, List<Object> out) {
    long body = frame.bodyLength();
    if (body > maxFrameBytes) {
      frame.release();
      throw new FrameTooLargeException(body, maxFrameBytes);
    }
    ByteBuf head = ctx.alloc().buffer(4 + Frame.FIXED_BYTES + frame.header().length);
    head.writeInt((int) body)
        .writeLong(frame.requestId())
        .writeByte(frame.kind())
        .writeByte(frame.service().code())
        .writeInt(frame.header().length)
        .writeBytes(frame.header());
    if (frame.payload().isReadable()) {
      CompositeByteBuf whole = ctx.alloc().compositeBuffer(2);
      whole.addComponents(true, head, frame.payload());
      out.add(whole);
    } else {
      frame.release();
      out.add(head);
    }
  }
}
