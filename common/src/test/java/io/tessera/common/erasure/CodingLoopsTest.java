package io.tessera.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The Vector API loop against Backblaze's on random shapes, sizes and offsets (beyond the fixed
 * vectors).
 */
class CodingLoopsTest {
  @Test
  void vectorLoopEncodesDecodesAndChecksExactlyLikeBackblaze() {
    Random rnd = new Random(11);
    for (int trial = 0; trial < 200; trial++) {
      int k = 1 + rnd.nextInt(12);
      int m =
          1
              + rnd.nextInt(
                  9); // the vector loop codes four outputs per pass: one, two and three passes
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
        assertThat(vector.isParityCorrect(a, offset, length))
            .as("a flipped parity bit is noticed")
            .isFalse();
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
        assertThat(Arrays.copyOfRange(a[i], offset, offset + length))
            .as("shard %d rebuilt", i)
            .isEqualTo(Arrays.copyOfRange(b[i], offset, offset + length));
      }
    }
  }

  @Test
  void readersRebuildOnlyTheMissingDataUnits() {
    Random rnd = new Random(12);
    for (int trial = 0; trial < 100; trial++) {
      int k = 1 + rnd.nextInt(10);
      int m = 1 + rnd.nextInt(4);
      int length = 1 + rnd.nextInt(5000);
      byte[][] full = new byte[k + m][length];
      for (int i = 0; i < k; i++) {
        rnd.nextBytes(full[i]);
      }
      ErasureCodec codec = ErasureCodec.reedSolomon(k, m);
      codec.encode(full, 0, length);
      // k shards present, chosen at random; the missing parity shards are null
      boolean[] present = new boolean[k + m];
      int have = 0;
      while (have < k) {
        int i = rnd.nextInt(k + m);
        if (!present[i]) {
          present[i] = true;
          have++;
        }
      }
      byte[][] shards = new byte[k + m][];
      for (int i = 0; i < k + m; i++) {
        shards[i] = present[i] ? full[i].clone() : i < k ? new byte[length] : null;
      }
      codec.reconstructData(shards, present, 0, length);
      for (int i = 0; i < k; i++) {
        assertThat(shards[i]).as("data shard %d of %d+%d", i, k, m).isEqualTo(full[i]);
      }
    }
  }

  @Test
  void shardsAtTheirOwnOffsetsInOneBufferDecodeInPlace() {
    Random rnd = new Random(13);
    for (CodingLoops loop : CodingLoops.values()) {
      for (int trial = 0; trial < 60; trial++) {
        int k = 1 + rnd.nextInt(10);
        int m = 1 + rnd.nextInt(4);
        int length = 1 + rnd.nextInt(trial % 6 == 0 ? 100_000 : 3000);
        byte[][] full = new byte[k + m][length];
        for (int i = 0; i < k; i++) {
          rnd.nextBytes(full[i]);
        }
        ErasureCodec.reedSolomon(k, m, loop).encode(full, 0, length);
        // the data units lie one after another in a reader's buffer; parity in arrays of their own
        byte[] buffer = new byte[7 + k * length];
        byte[][] shards = new byte[k + m][];
        int[] offsets = new int[k + m];
        boolean[] present = new boolean[k + m];
        for (int i = 0; i < k + m; i++) {
          present[i] = true;
        }
        int lost = 0;
        while (lost < m) {
          int i = rnd.nextInt(k + m);
          if (present[i]) {
            present[i] = false;
            lost++;
          }
        }
        for (int j = 0; j < k; j++) {
          shards[j] = buffer;
          offsets[j] = 7 + j * length;
          if (present[j]) {
            System.arraycopy(full[j], 0, buffer, offsets[j], length);
          }
        }
        for (int p = k; p < k + m; p++) {
          shards[p] = present[p] ? full[p] : null;
        }
        ErasureCodec.reedSolomon(k, m, loop).reconstructDataAt(shards, offsets, present, length);
        for (int j = 0; j < k; j++) {
          assertThat(Arrays.copyOfRange(buffer, offsets[j], offsets[j] + length))
              .as("%s: data %d of %d+%d", loop, j, k, m)
              .isEqualTo(full[j]);
        }
      }
    }
  }

  @Test
  void directBuffersOfRepliesDecodeTheLostDataUnitsIntoBuffersOfTheirOwn() {
    Random rnd = new Random(15);
    for (CodingLoops loop : CodingLoops.values()) {
      for (int trial = 0; trial < 40; trial++) {
        int k = 1 + rnd.nextInt(10);
        int m = 1 + rnd.nextInt(4);
        int length = 1 + rnd.nextInt(trial % 5 == 0 ? 100_000 : 3000);
        byte[][] full = new byte[k + m][length];
        for (int i = 0; i < k; i++) {
          rnd.nextBytes(full[i]);
        }
        ErasureCodec.reedSolomon(k, m, loop).encode(full, 0, length);
        boolean[] present = new boolean[k + m];
        Arrays.fill(present, true);
        for (int lost = 0; lost < m; ) {
          int i = rnd.nextInt(k + m);
          if (present[i]) {
            present[i] = false;
            lost++;
          }
        }
        // each kept unit is a slice of a reply in direct memory, not at its buffer's start
        ByteBuffer[] shards = new ByteBuffer[k + m];
        for (int i = 0; i < k + m; i++) {
          if (present[i]) {
            ByteBuffer reply = ByteBuffer.allocateDirect(length + 9);
            reply.position(9);
            reply.put(full[i]).position(9);
            shards[i] = reply;
          } else if (i < k) {
            shards[i] = ByteBuffer.allocate(length + 4).position(4);
          }
        }
        ErasureCodec.reedSolomon(k, m, loop).reconstructDataFrom(shards, present, length);
        for (int j = 0; j < k; j++) {
          byte[] got = new byte[length];
          shards[j].get(shards[j].position(), got);
          assertThat(got).as("%s: data %d of %d+%d", loop, j, k, m).isEqualTo(full[j]);
        }
      }
    }
  }

  @Test
  void dataShardsAtTheirOwnOffsetsEncodeToTheSameParity() {
    Random rnd = new Random(14);
    for (CodingLoops loop : CodingLoops.values()) {
      for (int trial = 0; trial < 60; trial++) {
        int k = 1 + rnd.nextInt(10);
        int m = 1 + rnd.nextInt(4);
        int length = 1 + rnd.nextInt(trial % 6 == 0 ? 100_000 : 3000);
        byte[] buffer = new byte[3 + k * length];
        rnd.nextBytes(buffer);
        byte[][] plain = new byte[k + m][length];
        byte[][] sliced = new byte[k + m][];
        int[] offsets = new int[k + m];
        for (int j = 0; j < k; j++) {
          System.arraycopy(buffer, 3 + j * length, plain[j], 0, length);
          sliced[j] = buffer;
          offsets[j] = 3 + j * length;
        }
        for (int p = k; p < k + m; p++) {
          sliced[p] = new byte[length + 5];
          offsets[p] = 5;
        }
        ErasureCodec codec = ErasureCodec.reedSolomon(k, m, loop);
        codec.encode(plain, 0, length);
        codec.encodeAt(sliced, offsets, length);
        for (int p = k; p < k + m; p++) {
          assertThat(Arrays.copyOfRange(sliced[p], 5, 5 + length))
              .as("%s parity %d of %d+%d", loop, p, k, m)
              .isEqualTo(plain[p]);
        }
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
