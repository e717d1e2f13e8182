package io.tessera.meta.ratis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.rpc.FrameBudget;
import org.apache.ratis.thirdparty.io.netty.buffer.ByteBuf;
import org.apache.ratis.thirdparty.io.netty.buffer.Unpooled;
import org.apache.ratis.thirdparty.io.netty.channel.embedded.EmbeddedChannel;
import org.apache.ratis.thirdparty.io.netty.handler.codec.TooLongFrameException;
import org.junit.jupiter.api.Test;

/**
 * The Raft port's framing: Ratis's varint32 length prefix, with the limits a server's own ports
 * have. Peers sending huge messages slowly must not take the meta replica's memory.
 */
class RaftFrameDecoderTest {
  @Test
  void aMessageInPiecesHoldsItsLengthFromTheBudgetUntilItIsWhole() {
    FrameBudget budget = new FrameBudget(1 << 20);
    EmbeddedChannel peer = new EmbeddedChannel(new RaftFrameDecoder(1 << 20, budget));

    peer.writeInbound(bytes(0xac, 0x02, 1, 2, 3)); // 300 bytes declared, 3 arrived
    assertThat(budget.reserved()).isEqualTo(302);
    assertThat((Object) peer.readInbound()).isNull();

    peer.writeInbound(Unpooled.wrappedBuffer(new byte[297]));
    ByteBuf message = peer.readInbound();
    assertThat(message.readableBytes()).isEqualTo(300);
    assertThat(message.getByte(0)).isEqualTo((byte) 1);
    message.release();
    assertThat(budget.reserved()).isZero();
  }

  @Test
  void aPeerWhoseMessageDoesNotFitWaitsUntilAnotherCompletes() {
    FrameBudget budget = new FrameBudget(100);
    EmbeddedChannel first = new EmbeddedChannel(new RaftFrameDecoder(1 << 20, budget));
    EmbeddedChannel second = new EmbeddedChannel(new RaftFrameDecoder(1 << 20, budget));

    first.writeInbound(bytes(80, 0));
    second.writeInbound(bytes(50, 0));
    assertThat(second.config().isAutoRead()).as("the second peer is not read from").isFalse();

    first.writeInbound(Unpooled.wrappedBuffer(new byte[79]));
    ((ByteBuf) first.readInbound()).release();
    assertThat(second.config().isAutoRead())
        .as("read again once the first message is whole")
        .isTrue();
  }

  @Test
  void aClosedConnectionGivesBackWhatItsHalfMessageHeld() {
    FrameBudget budget = new FrameBudget(1 << 20);
    EmbeddedChannel peer = new EmbeddedChannel(new RaftFrameDecoder(1 << 20, budget));
    peer.writeInbound(bytes(0xac, 0x02, 1));
    assertThat(budget.reserved()).isEqualTo(302);

    peer.close();
    assertThat(budget.reserved()).isZero();
  }

  @Test
  void aLengthPastTheLimitFailsTheConnectionOnceBeforeAnythingIsHeld() {
    FrameBudget budget = new FrameBudget(1 << 20);
    EmbeddedChannel peer = new EmbeddedChannel(new RaftFrameDecoder(1 << 20, budget));

    assertThatThrownBy(() -> peer.writeInbound(bytes(0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2)))
        .isInstanceOf(TooLongFrameException.class)
        .hasMessageContaining("4294967295 bytes");
    assertThat(budget.reserved()).isZero();
    peer.writeInbound(bytes(3, 1, 2, 3));
    assertThat((Object) peer.readInbound()).as("what follows the bad length is dropped").isNull();
  }

  @Test
  void aLengthOfMoreThanFiveBytesIsNoRaftMessage() {
    EmbeddedChannel peer =
        new EmbeddedChannel(new RaftFrameDecoder(1 << 20, new FrameBudget(1 << 20)));
    assertThatThrownBy(() -> peer.writeInbound(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x01)))
        .hasMessageContaining("length runs past 5 bytes");
  }

  private static ByteBuf bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return Unpooled.wrappedBuffer(b);
  }
}
