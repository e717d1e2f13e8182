package io.tessera.common.erasure;

import com.backblaze.erasure.CodingLoop;
import java.util.Arrays;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * GF(2^8) coding with the JDK Vector API, for Backblaze's {@code ReedSolomon}: the product {@code c
 * * x} is {@code low[c][x & 15] ^ high[c][x >>> 4]}, two 16-entry tables per coefficient, looked up
 * for a whole vector of bytes at once with a lane shuffle (the technique of ISA-L and
 * klauspost/reedsolomon). Same field and polynomial (0x11D) as Backblaze, so its output is
 * byte-identical to every Backblaze loop.
 *
 * <p>Only loaded where the {@code jdk.incubator.vector} module is present (see {@link
 * CodingLoops}); the species is a constant so that the JIT compiles it to SIMD.
 */
final class VectorCodingLoop implements CodingLoop {
  static final VectorSpecies<Byte> SPECIES = ByteVector.SPECIES_PREFERRED;
  private static final int LANES = SPECIES.length();

  /**
   * Coefficient c's tables start at {@code c * LANES}: in {@code LOW_FLAT}, c * x for x = 0..15, in
   * {@code HIGH_FLAT}, c * (x << 4); each repeated across the lanes.
   */
  private static final byte[] LOW_FLAT = new byte[256 * LANES];

  private static final byte[] HIGH_FLAT = new byte[256 * LANES];

  /** Outputs computed in one pass over the inputs (one accumulator each). */
  private static final int OUTPUTS_PER_PASS = 4;

  /** Bytes checked per step of {@link #checkSomeShards}. */
  private static final int CHECK_CHUNK = 64 << 10;

  static {
    for (int c = 0; c < 256; c++) {
      for (int i = 0; i < LANES; i++) {
        LOW_FLAT[c * LANES + i] = (byte) Gf256.multiply(c, i & 15);
        HIGH_FLAT[c * LANES + i] = (byte) Gf256.multiply(c, (i & 15) << 4);
      }
    }
  }

  @Override
  public void codeSomeShards(
      byte[][] matrixRows,
      byte[][] inputs,
      int inputCount,
      byte[][] outputs,
      int outputCount,
      int offset,
      int byteCount) {
    code(
        matrixRows,
        inputs,
        same(offset, inputCount),
        inputCount,
        outputs,
        same(offset, outputCount),
        outputCount,
        byteCount);
  }

  private static int[] same(int offset, int count) {
    int[] out = new int[count];
    Arrays.fill(out, offset);
    return out;
  }

  @Override
  public boolean checkSomeShards(
      byte[][] matrixRows,
      byte[][] inputs,
      int inputCount,
      byte[][] toCheck,
      int checkCount,
      int offset,
      int byteCount,
      byte[] tempBuffer) {
    int chunk = Math.min(CHECK_CHUNK, byteCount);
    byte[][] computed = new byte[checkCount][chunk];
    for (int done = 0; done < byteCount; done += chunk) {
      int n = Math.min(chunk, byteCount - done);
      code(
          matrixRows,
          inputs,
          same(offset + done, inputCount),
          inputCount,
          computed,
          new int[checkCount],
          checkCount,
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
   * outputs[o][outOffsets[o] + x] = XOR over i of matrixRows[o][i] * inputs[i][inOffsets[i] + x],
   * for x < byteCount: every shard at its own offset, so shards can be slices of one larger buffer.
   * Outputs are computed up to {@link #OUTPUTS_PER_PASS} at a time, so each input vector is loaded
   * and split into its nibbles once for all of them.
   */
  static void code(
      byte[][] matrixRows,
      byte[][] inputs,
      int[] inOffsets,
      int inputCount,
      byte[][] outputs,
      int[] outOffsets,
      int outputCount,
      int byteCount) {
    int vectorEnd = byteCount - byteCount % LANES;
    for (int first = 0; first < outputCount; first += OUTPUTS_PER_PASS) {
      int count = Math.min(OUTPUTS_PER_PASS, outputCount - first);
      int[][] tables = new int[OUTPUTS_PER_PASS][inputCount];
      for (int o = 0; o < count; o++) {
        for (int i = 0; i < inputCount; i++) {
          tables[o][i] = (matrixRows[first + o][i] & 0xFF) * LANES;
        }
      }
      codeVectors(
          inputs, inOffsets, inputCount, outputs, outOffsets, first, count, tables, vectorEnd);
    }
    for (int x = vectorEnd; x < byteCount; x++) {
      for (int o = 0; o < outputCount; o++) {
        int acc = 0;
        for (int i = 0; i < inputCount; i++) {
          int table = (matrixRows[o][i] & 0xFF) * LANES;
          int v = inputs[i][inOffsets[i] + x] & 0xFF;
          acc ^= LOW_FLAT[table + (v & 15)] ^ HIGH_FLAT[table + (v >>> 4)];
        }
        outputs[o][outOffsets[o] + x] = (byte) acc;
      }
    }
  }

  /**
   * The vector part of {@link #code} for outputs {@code first .. first + count - 1} (count at most
   * {@link #OUTPUTS_PER_PASS}); {@code tables[o][i]} is where coefficient row o, column i starts in
   * {@link #LOW_FLAT} and {@link #HIGH_FLAT}; the accumulators past {@code count} stay unused (the
   * tests on {@code count} do not change within the loop, so they are predicted).
   */
  private static void codeVectors(
      byte[][] inputs,
      int[] inOffsets,
      int inputCount,
      byte[][] outputs,
      int[] outOffsets,
      int first,
      int count,
      int[][] tables,
      int vectorEnd) {
    int[] t0 = tables[0];
    int[] t1 = tables[1];
    int[] t2 = tables[2];
    int[] t3 = tables[3];
    for (int x = 0; x < vectorEnd; x += LANES) {
      ByteVector a0 = ByteVector.zero(SPECIES);
      ByteVector a1 = a0;
      ByteVector a2 = a0;
      ByteVector a3 = a0;
      for (int i = 0; i < inputCount; i++) {
        ByteVector v = ByteVector.fromArray(SPECIES, inputs[i], inOffsets[i] + x);
        ByteVector l = v.and((byte) 0x0F);
        ByteVector h = v.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0F);
        a0 = a0.lanewise(VectorOperators.XOR, product(l, h, t0[i]));
        if (count > 1) {
          a1 = a1.lanewise(VectorOperators.XOR, product(l, h, t1[i]));
        }
        if (count > 2) {
          a2 = a2.lanewise(VectorOperators.XOR, product(l, h, t2[i]));
        }
        if (count > 3) {
          a3 = a3.lanewise(VectorOperators.XOR, product(l, h, t3[i]));
        }
      }
      a0.intoArray(outputs[first], outOffsets[first] + x);
      if (count > 1) {
        a1.intoArray(outputs[first + 1], outOffsets[first + 1] + x);
      }
      if (count > 2) {
        a2.intoArray(outputs[first + 2], outOffsets[first + 2] + x);
      }
      if (count > 3) {
        a3.intoArray(outputs[first + 3], outOffsets[first + 3] + x);
      }
    }
  }

  /**
   * c * v for the vector v split into its low nibbles l and high nibbles h; c's tables start at
   * {@code table}.
   */
  private static ByteVector product(ByteVector l, ByteVector h, int table) {
    return l.selectFrom(ByteVector.fromArray(SPECIES, LOW_FLAT, table))
        .lanewise(
            VectorOperators.XOR, h.selectFrom(ByteVector.fromArray(SPECIES, HIGH_FLAT, table)));
  }
}
