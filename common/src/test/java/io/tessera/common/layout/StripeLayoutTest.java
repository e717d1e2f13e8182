package io.tessera.common.layout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class StripeLayoutTest {
  private static List<String> servers(int n) {
    List<String> s = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      s.add("ds-" + i);
    }
    return s;
  }

  /** The definition, one byte at a time: where does file byte b live? */
  private static long[] reference(StripeLayout l, long b) {
    long stripe = b / ((long) l.dataUnits() * l.stripeUnit());
    long inStripe = b % ((long) l.dataUnits() * l.stripeUnit());
    return new long[] {stripe, inStripe / l.stripeUnit(), inStripe % l.stripeUnit()};
  }

  @Test
  void randomRangesMapToTheSameBytesAsTheDefinition() {
    Random rnd = new Random(42);
    int[][] shapes = {
      {4096, 1, 0}, {4096, 3, 0}, {8192, 6, 0}, {65536, 4, 2}, {1 << 20, 6, 3}, {4096, 10, 4}
    };
    for (int[] shape : shapes) {
      StripeLayout l = new StripeLayout(shape[0], shape[1], shape[2], servers(shape[1] + shape[2]));
      for (int trial = 0; trial < 300; trial++) {
        long off = Math.floorMod(rnd.nextLong(), 50L * l.stripeDataBytes());
        int len =
            rnd.nextInt(3 * (int) Math.min(l.stripeDataBytes(), 1 << 20))
                + (trial % 7 == 0 ? 0 : 1);
        List<ShardPiece> pieces = l.pieces(off, len);
        long covered = 0;
        long expectBufferOffset = 0;
        for (ShardPiece p : pieces) {
          assertThat(p.bufferOffset()).isEqualTo(expectBufferOffset);
          assertThat(p.length()).isPositive();
          assertThat(p.offsetInUnit() + p.length()).isLessThanOrEqualTo(l.stripeUnit());
          for (long b :
              new long[] {off + p.bufferOffset(), off + p.bufferOffset() + p.length() - 1}) {
            long[] ref = reference(l, b);
            assertThat(p.stripe()).isEqualTo(ref[0]);
            assertThat(p.unit()).isEqualTo((int) ref[1]);
            assertThat(p.offsetInUnit() + (b - off - p.bufferOffset())).isEqualTo(ref[2]);
          }
          expectBufferOffset += p.length();
          covered += p.length();
        }
        assertThat(covered).isEqualTo(len);
      }
    }
  }

  @Test
  void everyServerHoldsEveryRoleAcrossStripes() {
    StripeLayout l = new StripeLayout(4096, 4, 2, servers(6));
    for (int server = 0; server < 6; server++) {
      boolean data = false;
      boolean parity = false;
      for (long s = 0; s < 6; s++) {
        for (int u = 0; u < 6; u++) {
          if (l.serverIndex(s, u) == server) {
            data |= u < 4;
            parity |= u >= 4;
          }
        }
      }
      assertThat(data && parity).as("server %d carries data and parity", server).isTrue();
    }
    assertThat(l.serverOf(0, 0)).isEqualTo("ds-0");
    assertThat(l.serverOf(1, 0)).isEqualTo("ds-1");
    assertThat(l.serverOf(1, 5)).isEqualTo("ds-0");
  }

  @Test
  void keptUnitLengthsDescribeTheLastStripe() {
    StripeLayout l = new StripeLayout(4096, 3, 0, servers(3));
    assertThat(l.stripeOf(12288 + 5000)).isEqualTo(1);
    assertThat(l.keptUnitLengths(12288 + 5000)).containsExactly(4096, 904, 0);
    assertThat(l.keptUnitLengths(0)).containsExactly(0, 0, 0);
    assertThat(l.keptUnitLengths(12288)).containsExactly(0, 0, 0);
  }

  @Test
  void aParityUnitStoresAsMuchAsItsStripesLongestDataUnit() {
    StripeLayout l = new StripeLayout(4096, 3, 2, servers(5));
    long size = 12288 + 5000; // stripe 1 holds 4096 + 904 bytes
    assertThat(l.storedLength(size, 0, 4)).as("full stripe").isEqualTo(4096);
    assertThat(l.storedLength(size, 1, 1)).isEqualTo(904);
    assertThat(l.storedLength(size, 1, 3)).as("parity of the last stripe").isEqualTo(4096);
    assertThat(l.storedLength(size, 2, 3)).as("past the end").isZero();
  }

  @Test
  void impossibleLayoutsAreRefusedWithTheReason() {
    assertThatThrownBy(() -> StripeLayout.validate(3000, 4, 0))
        .hasMessageContaining("power of two");
    assertThatThrownBy(() -> StripeLayout.validate(2048, 4, 0)).hasMessageContaining("4 KiB");
    assertThatThrownBy(() -> StripeLayout.validate(4096, 0, 2)).hasMessageContaining("k >= 1");
    assertThatThrownBy(() -> StripeLayout.validate(4096, 4, -1)).hasMessageContaining("negative");
    assertThatThrownBy(() -> new StripeLayout(4096, 4, 2, servers(5)))
        .hasMessageContaining("needs 6 servers");
  }
}
