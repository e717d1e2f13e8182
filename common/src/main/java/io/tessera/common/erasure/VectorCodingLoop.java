package io.tessera.common.erasure;

import com.backblaze.erasure.CodingLoop;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
    code(
        matrixRows,
        wrap(inputs, inOffsets, inputCount, byteCount),
        inputCount,
        wrap(outputs, outOffsets, outputCount, byteCount),
        outputCount,
        byteCount);
  }

  private static ByteBuffer[] wrap(byte[][] arrays, int[] offsets, int count, int byteCount) {
    ByteBuffer[] out = new ByteBuffer[count];
    for (int i = 0; i < count; i++) {
      out[i] = ByteBuffer.wrap(arrays[i], offsets[i], byteCount).slice();
    }
    return out;
  }

  /**
   * outputs[o][x] = XOR over i of matrixRows[o][i] * inputs[i][x], for x < byteCount, indexes
   * counted from each buffer's position: inputs may be direct buffers (a reply's bytes where they
   * landed).
   */
  static void code(
      byte[][] matrixRows,
      ByteBuffer[] inputs,
      int inputCount,
      ByteBuffer[] outputs,
      int outputCount,
      int byteCount) {
    ByteBuffer[] in = new ByteBuffer[inputCount];
    for (int i = 0; i < inputCount; i++) {
      in[i] = inputs[i].slice();
    }
    ByteBuffer[] out = new ByteBuffer[outputCount];
    int[][] tables = new int[outputCount][inputCount];
    for (int o = 0; o < outputCount; o++) {
      out[o] = outputs[o].slice();
      for (int i = 0; i < inputCount; i++) {
        tables[o][i] = (matrixRows[o][i] & 0xFF) * LANES;
      }
    }
    int vectorEnd = byteCount - byteCount % LANES;
    int three = outputCount - outputCount % 3;
    for (int o = 0; o < three; o += 3) {
      codeThree(
          in,
          inputCount,
          out[o],
          out[o + 1],
          out[o + 2],
          tables[o],
          tables[o + 1],
          tables[o + 2],
          vectorEnd);
    }
    if (outputCount - three == 2) {
      codeTwo(
          in, inputCount, out[three], out[three + 1], tables[three], tables[three + 1], vectorEnd);
    } else if (outputCount - three == 1) {
      codeOne(in, inputCount, out[three], tables[three], vectorEnd);
    }
    for (int x = vectorEnd; x < byteCount; x++) {
      for (int o = 0; o < outputCount; o++) {
        int acc = 0;
        for (int i = 0; i < inputCount; i++) {
          int v = in[i].get(x) & 0xFF;
          acc ^= LOW_FLAT[tables[o][i] + (v & 15)] ^ HIGH_FLAT[tables[o][i] + (v >>> 4)];
        }
        out[o].put(x, (byte) acc);
      }
    }
  }

  /**
   * The vector part of {@link #code} for three outputs, each input split into nibbles once for all
   * three; {@code t0[i]} is where output 0's coefficient for input i starts in {@link #LOW_FLAT}
   * and {@link #HIGH_FLAT}. Kernels of fixed width because C2 keeps vectors in registers only when
   * no branch merges them: one kernel with up to four accumulators, some updated under a test on
   * the count, boxed every vector once codes of different widths had run (20 bytes allocated per
   * byte coded, and slower).
   */
  private static void codeThree(
      ByteBuffer[] inputs,
      int inputCount,
      ByteBuffer out0,
      ByteBuffer out1,
      ByteBuffer out2,
      int[] t0,
      int[] t1,
      int[] t2,
      int vectorEnd) {
    ByteOrder order = ByteOrder.nativeOrder();
    for (int x = 0; x < vectorEnd; x += LANES) {
      ByteVector a0 = ByteVector.zero(SPECIES);
      ByteVector a1 = a0;
      ByteVector a2 = a0;
      for (int i = 0; i < inputCount; i++) {
        ByteVector v = ByteVector.fromByteBuffer(SPECIES, inputs[i], x, order);
        ByteVector l = v.and((byte) 0x0F);
        ByteVector h = v.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0F);
        a0 = a0.lanewise(VectorOperators.XOR, product(l, h, t0[i]));
        a1 = a1.lanewise(VectorOperators.XOR, product(l, h, t1[i]));
        a2 = a2.lanewise(VectorOperators.XOR, product(l, h, t2[i]));
      }
      a0.intoByteBuffer(out0, x, order);
      a1.intoByteBuffer(out1, x, order);
      a2.intoByteBuffer(out2, x, order);
    }
  }

  /** {@link #codeThree} for two outputs. */
  private static void codeTwo(
      ByteBuffer[] inputs,
      int inputCount,
      ByteBuffer out0,
      ByteBuffer out1,
      int[] t0,
      int[] t1,
      int vectorEnd) {
    ByteOrder order = ByteOrder.nativeOrder();
    for (int x = 0; x < vectorEnd; x += LANES) {
      ByteVector a0 = ByteVector.zero(SPECIES);
      ByteVector a1 = a0;
      for (int i = 0; i < inputCount; i++) {
        ByteVector v = ByteVector.fromByteBuffer(SPECIES, inputs[i], x, order);
        ByteVector l = v.and((byte) 0x0F);
        ByteVector h = v.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0F);
        a0 = a0.lanewise(VectorOperators.XOR, product(l, h, t0[i]));
        a1 = a1.lanewise(VectorOperators.XOR, product(l, h, t1[i]));
      }
      a0.intoByteBuffer(out0, x, order);
      a1.intoByteBuffer(out1, x, order);
    }
  }

  /** {@link #codeThree} for one output. */
  private static void codeOne(
      ByteBuffer[] inputs, int inputCount, ByteBuffer out, int[] t, int vectorEnd) {
    ByteOrder order = ByteOrder.nativeOrder();
    for (int x = 0; x < vectorEnd; x += LANES) {
      ByteVector acc = ByteVector.zero(SPECIES);
      for (int i = 0; i < inputCount; i++) {
        ByteVector v = ByteVector.fromByteBuffer(SPECIES, inputs[i], x, order);
        ByteVector l = v.and((byte) 0x0F);
        ByteVector h = v.lanewise(VectorOperators.LSHR, 4).and((byte) 0x0F);
        acc = acc.lanewise(VectorOperators.XOR, product(l, h, t[i]));
      }
      acc.intoByteBuffer(out, x, order);
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
