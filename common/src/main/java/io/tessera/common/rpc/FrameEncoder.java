package io.tessera.common.rpc;

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
    out.add(Frame.encode(ctx.alloc(), frame));
  }
}
