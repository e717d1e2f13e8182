package io.tessera.nfs.oncrpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** Lengths read off the wire are checked before anything is allocated for them. */
class XdrReaderTest {
  @Test
  void anOpaqueLongerThanItsMaximumIsGarbageNotAnAllocation() {
    XdrReader in = new XdrReader(Unpooled.buffer().writeInt(Integer.MAX_VALUE));
    assertThatThrownBy(() -> in.readOpaque(64, "file handle"))
        .isInstanceOf(XdrException.class)
        .hasMessageContaining("file handle length 2147483647 is over 64");
  }

  @Test
  void anOpaqueLongerThanTheRecordIsGarbage() {
    XdrReader in = new XdrReader(Unpooled.buffer().writeInt(40).writeLong(7));
    assertThatThrownBy(() -> in.readOpaque(64, "file handle"))
        .isInstanceOf(XdrException.class)
        .hasMessageContaining("the record ends");
  }

  @Test
  void stringsArePaddedToFourBytesBothWays() throws Exception {
    XdrWriter out = new XdrWriter(Unpooled.buffer());
    out.writeString("abcde").writeInt(7);
    assertThat(out.size()).isEqualTo(4 + 8 + 4);
    XdrReader in = new XdrReader(out.buffer());
    assertThat(in.readString(255, "name")).isEqualTo("abcde");
    assertThat(in.readInt()).isEqualTo(7);
  }

  @Test
  void aBooleanIsZeroOrOne() {
    XdrReader in = new XdrReader(Unpooled.buffer().writeInt(2));
    assertThatThrownBy(in::readBool).isInstanceOf(XdrException.class);
  }
}
