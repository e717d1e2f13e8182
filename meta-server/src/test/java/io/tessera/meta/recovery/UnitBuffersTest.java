package io.tessera.meta.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;
import org.junit.jupiter.api.Test;

class UnitBuffersTest {
  @Test
  void theNextChunkReusesTheArraysOfTheLastOnceItsWriteWasSent() {
    UnitBuffers buffers = new UnitBuffers(1 << 20);
    byte[] unit = buffers.take(4096);
    ByteBuf sent = Unpooled.wrappedBuffer(unit);
    sent.release(); // what Netty does once the request is written out

    buffers.giveBack(new byte[][][] {{unit}}, List.of(sent));

    assertThat(buffers.take(4096)).isSameAs(unit);
    assertThat(buffers.take(4096)).isNotSameAs(unit);
  }

  @Test
  void aWriteStillQueuedAfterItsCallGaveUpKeepsItsBytes() {
    UnitBuffers buffers = new UnitBuffers(1 << 20);
    byte[] unit = buffers.take(4096);
    unit[0] = 42;
    ByteBuf queued = Unpooled.wrappedBuffer(unit); // not yet written: Netty still holds it

    buffers.giveBack(new byte[][][] {{unit}}, List.of(queued));

    byte[] next = buffers.take(4096);
    assertThat(next).isNotSameAs(unit);
    next[0] = 7;
    assertThat(queued.getByte(0)).isEqualTo((byte) 42);
    assertThat(buffers.keptBytes()).isZero();
  }

  @Test
  void keepsNoMoreThanItsCapAndOnlyHandsOutArraysOfTheSizeAskedFor() {
    UnitBuffers buffers = new UnitBuffers(8192);
    byte[] a = new byte[4096];
    byte[] b = new byte[4096];
    byte[] c = new byte[4096];

    buffers.giveBack(new byte[][][] {{a, b}, {c, null}}, List.of());

    assertThat(buffers.keptBytes()).isEqualTo(8192);
    assertThat(buffers.take(1024)).hasSize(1024);
    assertThat(buffers.take(4096)).isIn(a, b);
    assertThat(buffers.keptBytes()).isEqualTo(4096);
  }
}
