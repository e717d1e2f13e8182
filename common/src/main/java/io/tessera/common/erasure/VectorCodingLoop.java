package io.tessera.common.erasure;

import com.backblaze.erasure.CodingLoop;
import java.util.Arrays;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * GF(2^8) coding with the JDK Vector API, for Backblaze's {@code ReedSolomon}: the product
 * {@code c * x} is {@code low[c][x & 15] ^ high[c][x >>> 4]}, two 16-entry tables per
 * coefficient, looked up for a whole vector of bytes at once with a lane shuffle (the
 * technique of ISA-L and klauspost/reedsolomon). Same field and polynomial (0x11D) as
 * Backblaze, so its output is byte-identical to every Backblaze loop.
 *
 * <p>Only loaded where the {@code jdk.incubator.vector} module is present (see
 * {@link CodingLoops}); the species is a constant so that the JIT compiles it to SIMD.
 */
final class VectorCodingLoop implements CodingLoop {
  static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
  private static final int LANES = SPECIES.length();
  /** {@code LOW[c]}: c * x for x = 0..15, repeated across the lanes; {@code HIGH[c]}: c * (x << 4). */
  private static final byte[][] LOW = new byte[256][LANES];
  private static final byte[][] HIGH = new byte[256][LANES];
  /** Bytes checked per step of {@link #checkSomeShards}. */
  private static final int CHECK_CHUNK = 64 << 10;

  static {
    for (int c = 0; c < 256; c++) {
      for (int i = 0; i < LANES; i++) {
        LOW[c][i] = (byte) Gf256.multiply(c, i & 15);
        HIGH[c][i] = (byte) Gf256.multiply(c, (i & 15) << 4);
      }
    }
  }

  @Override
  public void codeSomeShards(byte[][] matrixRows, byte[][] inputs, int inputCount, byte[][] outputs,
      int outputCount, int offset, int byteCount) {
    code(matrixRows, inputs, same(offset, inputCount), inputCount, outputs, same(offset, outputCount), outputCount,
        byteCount);
  }

  private static int[] same(int offset, int count) {
    int[] out = new int[count];
    Arrays.fill(out, offset);
    return out;
  }

  @Override
  public boolean checkSomeShards(byte[][] matrixRows, byte[][] inputs, int inputCount, byte[][] toCheck,
      int checkCount, int offset, int byteCount, byte[] tempBuffer) {
    int chunk = Math.min(CHECK_CHUNK, byteCount);
    byte[][] computed = new byte[checkCount][chunk];
    for (int done = 0; done < byteCount; done += chunk) {
      int n = Math.min(chunk, byteCount - done);
      code(matrixRows, inputs, same(offset + done, inputCount), inputCount, computed, new int[checkCount], checkCount,
          n);
      for (int c = 0; c < checkCount; c++) {
        if (!Arrays.equals(computed[c], 0, n, toCheck[c], offset + done, offset + done + n)) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * outputs[o][outOffsets[o] + x] = XOR over i of matrixRows[o][i] * inputs[i][inOffsets[i] + x], for x < byteCount:
   * every shard at its own offset, so shards can be slices of one larger buffer.
   */
  static void code(byte[][] matrixRows, byte[][] inputs, int[] inOffsets, int inputCount, byte[][] outputs,
      int[] outOffsets, int outputCount, int byteCount) {
    ByteVector[][] low = new ByteVector[outputCount][inputCount];
    ByteVector[][] high = new ByteVector[outputCount][inputCount];
    for (int o = 0; o < outputCount; o++) {
      for (int i = 0; i < inputCount; i++) {
        int c = matrixRows[o][i] & 0xFF;
        low[o][i] = ByteVector.fromArray(SPECIES, LOW[c], 0);
        high[o][i] = ByteVector.fromArray(SPECIES, HIGH[c], 0);
      }
    }
    int vectorEnd = byteCount - byteCount % LANES;
    for (int x = 0; x < vectorEnd; x += LANES) {
      for (int o = 0; o < outputCount; o++) {
        ByteVector acc = ByteVector.zero(SPECIES);
        ByteVector[] lo = low[o];
        ByteVector[] hi = high[o];
        for (int i = 0; i < inputCount; i++) {
          ByteVector v = ByteVector.fromArray(SPECIES, inputs[i], inOffsets[i] + x);
          ByteVector l = v.and((byte) 0x0F);
          ByteVector h = v.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0F);
          acc = acc.lanewise(VectorOperators.XOR, l.selectFrom(lo[i]))
              .lanewise(VectorOperators.XOR, h.selectFrom(hi[i]));
        }
        acc.intoArray(outputs[o], outOffsets[o] + x);
      }
    }
    for (int x = vectorEnd; x < byteCount; x++) {
      for (int o = 0; o < outputCount; o++) {
        int acc = 0;
        for (int i = 0; i < inputCount; i++) {
          int c = matrixRows[o][i] & 0xFF;
          int v = inputs[i][inOffsets[i] + x] & 0xFF;
          acc ^= LOW[c][v & 15] ^ HIGH[c][v >>> 4];
        }
        outputs[o][outOffsets[o] + x] = (byte) acc;
      }
    }
  }
}
