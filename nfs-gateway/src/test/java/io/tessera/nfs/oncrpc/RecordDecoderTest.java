package io.tessera.nfs.oncrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

/** Record marking as clients send it, and as an attacker would. */
class RecordDecoderTest {
  private static ByteBuf fragment(boolean last, byte[] body) {
    return Unpooled.buffer().writeInt((last ? 0x80000000 : 0) | body.length).writeBytes(body);
  }

  @Test
  void fragmentsArriveAsOneRecordWhateverTheTcpSegmentsAre() {
    EmbeddedChannel ch = new EmbeddedChannel(new RecordDecoder(1024));
    ByteBuf wire = Unpooled.buffer();
    wire.writeBytes(fragment(false, new byte[] {1, 2, 3}));
    wire.writeBytes(fragment(true, new byte[] {4, 5}));
    while (wire.isReadable()) {
      ch.writeInbound(wire.readRetainedSlice(Math.min(2, wire.readableBytes())));
    }
    ByteBuf record = ch.readInbound();
    byte[] got = new byte[record.readableBytes()];
    record.readBytes(got);
    record.release();
    assertThat(got).containsExactly(1, 2, 3, 4, 5);
    assertThat((Object) ch.readInbound()).isNull();
  }

  @Test
  void aRecordClaimingMoreThanTheLimitIsRefusedBeforeItsBytesAreHeld() {
    EmbeddedChannel ch = new EmbeddedChannel(new RecordDecoder(1024));
    // the header alone claims 2 GiB: nothing of it may be buffered
    assertThatThrownBy(() -> ch.writeInbound(Unpooled.buffer().writeInt(0xffffffff)))
        .isInstanceOf(DecoderException.class)
        .hasMessageContaining("more than 1024 bytes");
  }

  @Test
  void fragmentsThatAddUpPastTheLimitAreRefused() {
    EmbeddedChannel ch = new EmbeddedChannel(new RecordDecoder(1024));
    ch.writeInbound(fragment(false, new byte[1000]));
    assertThatThrownBy(() -> ch.writeInbound(fragment(false, new byte[100])))
        .isInstanceOf(DecoderException.class);
  }

  @Test
  void endlessTinyFragmentsAreCutOff() {
    EmbeddedChannel ch = new EmbeddedChannel(new RecordDecoder(1 << 20));
    ByteBuf many = Unpooled.buffer();
    for (int i = 0; i <= RecordDecoder.MAX_FRAGMENTS; i++) {
      many.writeBytes(fragment(false, new byte[] {0}));
    }
    assertThatThrownBy(() -> ch.writeInbound(many))
        .isInstanceOf(DecoderException.class)
        .hasMessageContaining("fragments");
  }
}
