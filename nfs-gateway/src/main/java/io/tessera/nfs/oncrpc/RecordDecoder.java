package io.tessera.nfs.oncrpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.TooLongFrameException;
import java.util.List;

/**
 * ONC RPC record marking over TCP (RFC 5531 section 11): fragments, each behind a 4-byte header
 * whose top bit marks the last, joined into one record. A record longer than {@code maxRecord}
 * bytes, or made of more than {@link #MAX_FRAGMENTS} fragments, closes the connection before its
 * bytes are buffered: no client can make the gateway hold more than that for it.
 */
public final class RecordDecoder extends ByteToMessageDecoder {
  static final int MAX_FRAGMENTS = 64;
  private static final int LAST = 0x80000000;

  private final int maxRecord;
  private CompositeByteBuf record;
  private int fragments;

  public RecordDecoder(int maxRecord) {
    this.maxRecord = maxRecord;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (in.readableBytes() >= 4) {
      int header = in.getInt(in.readerIndex());
      int length = header & ~LAST;
      int held = record == null ? 0 : record.readableBytes();
      if (length > maxRecord - held || fragments >= MAX_FRAGMENTS) {
        throw new TooLongFrameException(
            "an RPC record of more than "
                + maxRecord
                + " bytes or "
                + MAX_FRAGMENTS
                + " fragments (fragment of "
                + length
                + " bytes after "
                + held
                + ")");
      }
      if (in.readableBytes() < 4 + length) {
        return;
      }
      in.skipBytes(4);
      fragments++;
      if (record == null) {
        record = ctx.alloc().compositeBuffer(MAX_FRAGMENTS);
      }
      record.addComponent(true, in.readRetainedSlice(length));
      if ((header & LAST) != 0) {
        out.add(record);
        record = null;
        fragments = 0;
      }
    }
  }

  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) {
    if (record != null) {
      record.release();
      record = null;
    }
  }
}
