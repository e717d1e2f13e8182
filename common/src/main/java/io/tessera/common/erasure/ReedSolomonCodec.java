package io.tessera.common.erasure;

import com.backblaze.erasure.Galois;
import com.backblaze.erasure.Matrix;
import com.backblaze.erasure.ReedSolomon;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link ErasureCodec} backed by the Backblaze JavaReedSolomon codec (MIT), with a coding loop of
 * our choice.
 */
final class ReedSolomonCodec implements ErasureCodec {
  private final ReedSolomon rs;
  private final CodingLoops loop;

  /**
   * The same encoding matrix Backblaze builds: a Vandermonde matrix times the inverse of its top
   * square.
   */
  private final Matrix encoding;

  /**
   * Decoding matrices by the set of shards decoded from (a bit each): at most n-choose-k of them.
   */
  private final Map<Long, Matrix> inverses = new ConcurrentHashMap<>();

  ReedSolomonCodec(int k, int m, CodingLoops loop) {
    if (k < 1 || m < 1 || k + m > 256) {
      throw new IllegalArgumentException(
          "Reed-Solomon needs 1 <= k, 1 <= m and k + m <= 256; got " + k + "+" + m);
    }
    this.rs = new ReedSolomon(k, m, loop.create());
    this.loop = loop;
    Matrix vandermonde = new Matrix(k + m, k);
    for (int r = 0; r < k + m; r++) {
      for (int c = 0; c < k; c++) {
        vandermonde.set(r, c, Galois.exp((byte) r, c));
      }
    }
    this.encoding = vandermonde.times(vandermonde.submatrix(0, 0, k, k).invert());
  }

  @Override
  public int dataShards() {
    return rs.getDataShardCount();
  }

  @Override
  public int parityShards() {
    return rs.getParityShardCount();
  }

  @Override
  public void encode(byte[][] shards, int offset, int length) {
    check(shards, offset, length);
    rs.encodeParity(shards, offset, length);
  }

  @Override
  public void reconstruct(byte[][] shards, boolean[] present, int offset, int length) {
    check(shards, offset, length);
    int have = 0;
    for (boolean p : present) {
      have += p ? 1 : 0;
    }
    if (present.length != shards.length || have < dataShards()) {
      throw new IllegalArgumentException(
          "a stripe of "
              + dataShards()
              + "+"
              + parityShards()
              + " needs "
              + dataShards()
              + " shards to rebuild the rest; "
              + have
              + " are present");
    }
    rs.decodeMissing(shards, present, offset, length);
  }

  @Override
  public void reconstructData(byte[][] shards, boolean[] present, int offset, int length) {
    int n = rs.getTotalShardCount();
    if (shards.length != n || present.length != n) {
      throw new IllegalArgumentException("expected " + n + " shards, got " + shards.length);
    }
    // Backblaze decodes from the first k present shards and then rebuilds every missing one,
    // parity included. A missing parity shard after the last present one is never an input:
    // calling it present (over scratch space) skips its needless rebuild.
    int lastPresent = -1;
    for (int i = 0; i < n; i++) {
      lastPresent = present[i] ? i : lastPresent;
    }
    byte[][] s = shards.clone();
    boolean[] p = present.clone();
    byte[] unused = null;
    for (int i = dataShards(); i < n; i++) {
      if (p[i] || s[i] != null) {
        continue;
      }
      if (i > lastPresent) {
        unused = unused == null ? new byte[offset + length] : unused;
        s[i] = unused;
        p[i] = true;
      } else {
        s[i] = new byte[offset + length];
      }
    }
    reconstruct(s, p, offset, length);
  }

  @Override
  public void encodeAt(byte[][] shards, int[] offsets, int length) {
    int k = dataShards();
    int n = rs.getTotalShardCount();
    if (shards.length != n || offsets.length != n) {
      throw new IllegalArgumentException("expected " + n + " shards and offsets");
    }
    if (!loop.vectorNow()) {
      byte[][] tmp = new byte[n][];
      for (int i = 0; i < n; i++) {
        tmp[i] =
            i < k
                ? Arrays.copyOfRange(shards[i], offsets[i], offsets[i] + length)
                : new byte[length];
      }
      encode(tmp, 0, length);
      for (int p = k; p < n; p++) {
        System.arraycopy(tmp[p], 0, shards[p], offsets[p], length);
      }
      return;
    }
    byte[][] rows = new byte[n - k][];
    for (int p = k; p < n; p++) {
      rows[p - k] = encoding.getRow(p);
    }
    VectorCodingLoop.code(
        rows,
        Arrays.copyOf(shards, k),
        Arrays.copyOf(offsets, k),
        k,
        Arrays.copyOfRange(shards, k, n),
        Arrays.copyOfRange(offsets, k, n),
        n - k,
        length);
  }

  @Override
  public void reconstructDataAt(byte[][] shards, int[] offsets, boolean[] present, int length) {
    int n = rs.getTotalShardCount();
    if (shards.length != n || offsets.length != n) {
      throw new IllegalArgumentException("expected " + n + " shards and offsets");
    }
    ByteBuffer[] buffers = new ByteBuffer[n];
    for (int i = 0; i < n; i++) {
      if (shards[i] != null) {
        buffers[i] = ByteBuffer.wrap(shards[i], offsets[i], length).slice();
      }
    }
    reconstructDataFrom(buffers, present, length);
  }

  @Override
  public void reconstructDataFrom(ByteBuffer[] shards, boolean[] present, int length) {
    int k = dataShards();
    int n = rs.getTotalShardCount();
    if (shards.length != n || present.length != n) {
      throw new IllegalArgumentException("expected " + n + " shards and flags");
    }
    int[] sources = new int[k];
    int found = 0;
    for (int i = 0; i < n && found < k; i++) {
      if (present[i]) {
        sources[found++] = i;
      }
    }
    if (found < k) {
      throw new IllegalArgumentException(
          "a stripe of "
              + k
              + "+"
              + parityShards()
              + " needs "
              + k
              + " shards to rebuild the rest; "
              + found
              + " are present");
    }
    List<Integer> wanted = new ArrayList<>();
    for (int j = 0; j < k; j++) {
      if (!present[j] && shards[j] != null) {
        wanted.add(j);
      }
    }
    if (wanted.isEmpty()) {
      return;
    }
    if (!loop.vectorNow()) {
      reconstructByCopy(shards, present, length, wanted);
      return;
    }
    Matrix decode = decodeMatrix(sources);
    byte[][] rows = new byte[wanted.size()][];
    ByteBuffer[] outputs = new ByteBuffer[wanted.size()];
    for (int w = 0; w < rows.length; w++) {
      rows[w] = decode.getRow(wanted.get(w));
      outputs[w] = shards[wanted.get(w)];
    }
    ByteBuffer[] inputs = new ByteBuffer[k];
    for (int r = 0; r < k; r++) {
      inputs[r] = shards[sources[r]];
    }
    VectorCodingLoop.code(rows, inputs, k, outputs, rows.length, length);
  }

  /**
   * data = inverse(rows of the sources) x sources, one inverse per set of sources: a reader decodes
   * stripe after stripe (and a kept read piece after piece) from the same ones.
   */
  private Matrix decodeMatrix(int[] sources) {
    long key = 0;
    for (int s : sources) {
      if (s >= Long.SIZE) {
        return invert(sources);
      }
      key |= 1L << s;
    }
    return inverses.computeIfAbsent(key, x -> invert(sources));
  }

  private Matrix invert(int[] sources) {
    int k = sources.length;
    Matrix sub = new Matrix(k, k);
    for (int r = 0; r < k; r++) {
      for (int c = 0; c < k; c++) {
        sub.set(r, c, encoding.get(sources[r], c));
      }
    }
    return sub.invert();
  }

  /** Any loop: copy into arrays, decode, copy the wanted shards back. */
  private void reconstructByCopy(
      ByteBuffer[] shards, boolean[] present, int length, List<Integer> wanted) {
    int n = shards.length;
    byte[][] tmp = new byte[n][];
    boolean[] p = new boolean[n];
    for (int i = 0; i < n; i++) {
      if (present[i]) {
        tmp[i] = new byte[length];
        shards[i].get(shards[i].position(), tmp[i]);
        p[i] = true;
      } else if (i < dataShards()) {
        tmp[i] = new byte[length];
      }
    }
    reconstructData(tmp, p, 0, length);
    for (int j : wanted) {
      shards[j].put(shards[j].position(), tmp[j]);
    }
  }

  @Override
  public boolean isParityCorrect(byte[][] shards, int offset, int length) {
    check(shards, offset, length);
    return rs.isParityCorrect(shards, offset, length);
  }

  private void check(byte[][] shards, int offset, int length) {
    if (shards.length != rs.getTotalShardCount()) {
      throw new IllegalArgumentException(
          "expected " + rs.getTotalShardCount() + " shards, got " + shards.length);
    }
    for (byte[] s : shards) {
      if (s == null || offset < 0 || length < 0 || s.length < offset + length) {
        throw new IllegalArgumentException(
            "every shard must hold bytes [" + offset + ", " + (offset + length) + ")");
      }
    }
  }
}
