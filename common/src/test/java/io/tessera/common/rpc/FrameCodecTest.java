package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.EncoderException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FrameCodecTest {
  private static final int MAX = 1 << 20;

  private static ByteBuf encode(Frame f) {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(MAX));
    ch.writeOutbound(f);
    ByteBuf out = Unpooled.buffer();
    ByteBuf part;
    while ((part = ch.readOutbound()) != null) {
      out.writeBytes(part);
      part.release();
    }
    return out;
  }

  @Test
  void aFrameRoundTripsWithHeaderAndPayloadIntact() {
    byte[] header = "header".getBytes(StandardCharsets.UTF_8);
    ByteBuf wire =
        encode(
            Frame.request(77, Service.DATA, header, Unpooled.wrappedBuffer(new byte[] {1, 2, 3})));
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX));
    in.writeInbound(wire);
    Frame f = in.readInbound();
    assertThat(f.requestId()).isEqualTo(77);
    assertThat(f.kind()).isEqualTo(Frame.REQUEST);
    assertThat(f.service()).isEqualTo(Service.DATA);
    assertThat(f.header()).isEqualTo(header);
    byte[] payload = new byte[f.payload().readableBytes()];
    f.payload().readBytes(payload);
    assertThat(payload).containsExactly(1, 2, 3);
    f.release();
  }

  @Test
  void framesSplitAcrossReadsAreReassembledAndATruncatedOneYieldsNothing() {
    ByteBuf wire =
        encode(
            Frame.response(5, Service.META, new byte[] {9}, Unpooled.wrappedBuffer(new byte[100])));
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX));
    in.writeInbound(wire.readRetainedSlice(10));
    assertThat((Object) in.readInbound()).isNull();
    in.writeInbound(wire.readRetainedSlice(wire.readableBytes() - 1));
    assertThat((Object) in.readInbound()).as("one byte still missing").isNull();
    in.writeInbound(wire.readRetainedSlice(1));
    Frame f = in.readInbound();
    assertThat(f.payload().readableBytes()).isEqualTo(100);
    f.release();
    wire.release();
  }

  @Test
  void anOversizedLengthIsRejectedBeforeAnythingIsBuffered() {
    EmbeddedChannel in = new EmbeddedChannel(new FrameDecoder(MAX));
    ByteBuf evil = Unpooled.buffer().writeInt(Integer.MAX_VALUE).writeLong(1);
    assertThatThrownBy(() -> in.writeInbound(evil))
        .isInstanceOf(DecoderException.class)
        .hasMessageContaining("exceeds the limit");
  }

  @Test
  void negativeAndImpossibleLengthsAreRejected() {
    EmbeddedChannel a = new EmbeddedChannel(new FrameDecoder(MAX));
    assertThatThrownBy(() -> a.writeInbound(Unpooled.buffer().writeInt(-5)))
        .isInstanceOf(DecoderException.class);
    EmbeddedChannel b = new EmbeddedChannel(new FrameDecoder(MAX));
    ByteBuf headerTooLong =
        Unpooled.buffer()
            .writeInt(Frame.FIXED_BYTES + 4)
            .writeLong(1)
            .writeByte(0)
            .writeByte(Service.DATA.code())
            .writeInt(1000)
            .writeInt(0);
    assertThatThrownBy(() -> b.writeInbound(headerTooLong)).hasMessageContaining("does not fit");
    EmbeddedChannel c = new EmbeddedChannel(new FrameDecoder(MAX));
    ByteBuf badService =
        Unpooled.buffer()
            .writeInt(Frame.FIXED_BYTES)
            .writeLong(1)
            .writeByte(0)
            .writeByte(99)
            .writeInt(0);
    assertThatThrownBy(() -> c.writeInbound(badService)).hasMessageContaining("unknown service");
    EmbeddedChannel d = new EmbeddedChannel(new FrameDecoder(MAX));
    ByteBuf badKind =
        Unpooled.buffer()
            .writeInt(Frame.FIXED_BYTES)
            .writeLong(1)
            .writeByte(7)
            .writeByte(Service.DATA.code())
            .writeInt(0);
    assertThatThrownBy(() -> d.writeInbound(badKind)).hasMessageContaining("unknown frame kind");
  }

  /** Each rejected frame was logged twice: the decoder failed again on the bytes left at close. */
  @Test
  void aConnectionThatSentOneBadFrameFailsOnceAndWhatFollowsIsDropped() {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(MAX));
    assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeInt(-5).writeLong(7)))
        .isInstanceOf(DecoderException.class);
    ch.writeInbound(Unpooled.buffer().writeInt(-5).writeLong(7)); // no second failure
    ch.close();
    assertThat((Object) ch.readInbound()).isNull();
  }

  @Test
  void theEncoderRefusesAFrameLargerThanTheLimit() {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameEncoder(1 << 16));
    Frame big =
        Frame.request(1, Service.DATA, new byte[0], Unpooled.wrappedBuffer(new byte[1 << 17]));
    assertThatThrownBy(() -> ch.writeOutbound(big))
        .isInstanceOf(EncoderException.class)
        .hasRootCauseInstanceOf(FrameTooLargeException.class);
  }
}
