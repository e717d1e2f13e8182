package io.tessera.common.erasure;

import java.nio.ByteBuffer;

/**
 * A systematic k-of-n erasure code over stripe units: the first {@code k} shards are the data
 * unchanged, the last {@code m} are parity, and any {@code k} shards rebuild the others. The rest
 * of Tessera uses this interface and never names the coding library.
 *
 * <p>Shards are the {@code k + m} units of one stripe, each at least {@code offset + length} bytes;
 * implementations are thread-safe.
 */
public interface ErasureCodec {

  /**
   * Reed-Solomon over GF(2^8) with {@code k} data and {@code m} parity shards, on the fastest loop
   * this JVM runs.
   */
  static ErasureCodec reedSolomon(int k, int m) {
    return new ReedSolomonCodec(k, m, CodingLoops.best());
  }

  /**
   * {@link #reedSolomon(int, int)}, one instance per shape for the whole process (its matrices are
   * built once).
   */
  static ErasureCodec shared(int k, int m) {
    return SharedCodecs.get(k, m);
  }

  /** Reed-Solomon on a chosen coding loop (tests and benchmarks compare them). */
  static ErasureCodec reedSolomon(int k, int m, CodingLoops loop) {
    return new ReedSolomonCodec(k, m, loop);
  }

  int dataShards();

  int parityShards();

  /**
   * Computes the parity shards {@code shards[k..k+m)} from the data shards, bytes {@code [offset,
   * offset+length)}.
   */
  void encode(byte[][] shards, int offset, int length);

  /**
   * Like {@link #encode} with each shard at its own offset, so the data shards can be slices of one
   * caller's buffer (nothing is copied where the coding loop allows).
   */
  void encodeAt(byte[][] shards, int[] offsets, int length);

  /**
   * Rebuilds every shard whose {@code present} flag is false from those that are present (at least
   * {@code k}); on return every shard holds its bytes.
   *
   * @throws IllegalArgumentException when fewer than {@code k} shards are present
   */
  void reconstruct(byte[][] shards, boolean[] present, int offset, int length);

  /**
   * Rebuilds only the missing data shards (what a reader needs) from at least {@code k} present
   * shards; missing parity shards may be null and are left alone.
   *
   * @throws IllegalArgumentException when fewer than {@code k} shards are present
   */
  void reconstructData(byte[][] shards, boolean[] present, int offset, int length);

  /**
   * Like {@link #reconstructData} with each shard at its own offset (shards may be slices of a
   * reader's buffer, so nothing is copied where the coding loop allows): rebuilds the data shards
   * that are not present and whose array is not null, from the first {@code k} present shards;
   * other arrays may be null.
   */
  void reconstructDataAt(byte[][] shards, int[] offsets, boolean[] present, int length);

  /**
   * Like {@link #reconstructDataAt} with shards as buffers, bytes {@code [position, position +
   * length)} of each: present shards may be direct buffers (a reply's bytes where they landed, not
   * copied), and a missing data shard with a buffer receives its rebuilt bytes.
   */
  void reconstructDataFrom(ByteBuffer[] shards, boolean[] present, int length);

  /** Whether the parity shards match the data shards. */
  boolean isParityCorrect(byte[][] shards, int offset, int length);
}
