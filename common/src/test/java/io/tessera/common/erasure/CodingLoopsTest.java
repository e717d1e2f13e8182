package io.tessera.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The Vector API loop against Backblaze's on random shapes, sizes and offsets (beyond the fixed vectors). */
class CodingLoopsTest {
  @Test
  void vectorLoopEncodesDecodesAndChecksExactlyLikeBackblaze() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      int k = 1 + rnd.nextInt(12);
      int m = 1 + rnd.nextInt(5);
      int offset = rnd.nextInt(100);
      int length = rnd.nextInt(trial % 10 == 0 ? 200_000 : 3000);
      byte[][] a = new byte[k + m][offset + length + rnd.nextInt(10)];
      for (int i = 0; i < k; i++) {
        rnd.nextBytes(a[i]);
      }
      byte[][] b = copy(a);
      ErasureCodec vector = ErasureCodec.reedSolomon(k, m, CodingLoops.VECTOR);
      ErasureCodec backblaze = ErasureCodec.reedSolomon(k, m, CodingLoops.BACKBLAZE);
      vector.encode(a, offset, length);
      backblaze.encode(b, offset, length);
      assertThat(a).as("parity of %d+%d, %d bytes at %d", k, m, length, offset).isDeepEqualTo(b);
      assertThat(vector.isParityCorrect(a, offset, length)).isTrue();
      if (length > 0) {
        a[k + rnd.nextInt(m)][offset + rnd.nextInt(length)] ^= 1;
        assertThat(vector.isParityCorrect(a, offset, length)).as("a flipped parity bit is noticed").isFalse();
        a = copy(b);
      }
      boolean[] present = new boolean[k + m];
      Arrays.fill(present, true);
      for (int lost = 0; lost < m; lost++) {
        int i = rnd.nextInt(k + m);
        present[i] = false;
        Arrays.fill(a[i], (byte) 0);
      }
      vector.reconstruct(a, present, offset, length);
      for (int i = 0; i < k + m; i++) {
        assertThat(Arrays.copyOfRange(a[i], offset, offset + length)).as("shard %d rebuilt", i)
            .isEqualTo(Arrays.copyOfRange(b[i], offset, offset + length));
      }
    }
  }

  private static byte[][] copy(byte[][] s) {
    byte[][] c = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      c[i] = s[i].clone();
    }
    return c;
  }
}
