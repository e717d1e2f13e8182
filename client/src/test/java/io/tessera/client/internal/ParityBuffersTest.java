package io.tessera.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.StripeLayout;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Parity buffers reused between whole-stripe writes must never carry one write's bytes into
 * another's parity.
 */
class ParityBuffersTest {
  private static final int UNIT = 4096;

  @Test
  void aStripeEncodedIntoARecycledBufferHasTheParityOfItsOwnDataNotThePreviousOnes()
      throws Exception {
    StripeLayout layout =
        new StripeLayout(UNIT, 6, 3, IntStream.range(0, 9).mapToObj(i -> "ds-" + i).toList());
    ErasureCodec codec = ErasureCodec.reedSolomon(6, 3);
    ParityBuffers buffers = new ParityBuffers(1 << 20);
    Random rnd = new Random(7);
    for (int round = 0; round < 20; round++) {
      byte[] data = new byte[6 * UNIT];
      rnd.nextBytes(data);
      StripeUpdate update = new StripeUpdate(layout, 0, 0, data, 0, data.length);
      assertThat(update.plan(u -> true, buffers)).as("a whole stripe reads nothing").isEmpty();
      update.encode(codec);
      byte[][] stored = new byte[9][];
      for (StripeUpdate.Write w : update.writes(u -> true)) {
        stored[w.unit()] = Arrays.copyOfRange(w.from(), w.at(), w.at() + w.length());
      }
      assertThat(codec.isParityCorrect(stored, 0, UNIT)).as("parity of write %d", round).isTrue();
      for (StripeUpdate.Write w : update.writes(u -> true)) {
        if (w.unit() >= 6) {
          Arrays.fill(
              w.from(), (byte) 0x5A); // what the next write finds in the buffer it is handed
        }
      }
      update.recycle(buffers);
      update.recycle(buffers); // a second hand-back must not put the same buffer out twice
      assertThat(buffers.keptBytes()).isEqualTo(3L * UNIT);
    }
  }

  @Test
  void keepsNoMoreThanItsBoundAndHandsEachBufferOutOnce() {
    ParityBuffers buffers = new ParityBuffers(3 * UNIT);
    for (int i = 0; i < 5; i++) {
      buffers.give(new byte[UNIT]);
    }
    assertThat(buffers.keptBytes()).isEqualTo(3L * UNIT);
    Set<byte[]> out = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < 5; i++) {
      out.add(buffers.take(UNIT));
    }
    assertThat(out).hasSize(5);
    assertThat(buffers.keptBytes()).isZero();
    assertThat(buffers.take(2 * UNIT)).hasSize(2 * UNIT);
  }
}
