package io.tessera.common.erasure;

import com.backblaze.erasure.ReedSolomon;

/** {@link ErasureCodec} backed by the Backblaze JavaReedSolomon codec (MIT), with a coding loop of our choice. */
final class ReedSolomonCodec implements ErasureCodec {
  private final ReedSolomon rs;

  ReedSolomonCodec(int k, int m, CodingLoops loop) {
    if (k < 1 || m < 1 || k + m > 256) {
      throw new IllegalArgumentException("Reed-Solomon needs 1 <= k, 1 <= m and k + m <= 256; got " + k + "+" + m);
    }
    rs = new ReedSolomon(k, m, loop.create());
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
      throw new IllegalArgumentException("a stripe of " + dataShards() + "+" + parityShards() + " needs "
          + dataShards() + " shards to rebuild the rest; " + have + " are present");
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
  public boolean isParityCorrect(byte[][] shards, int offset, int length) {
    check(shards, offset, length);
    return rs.isParityCorrect(shards, offset, length);
  }

  private void check(byte[][] shards, int offset, int length) {
    if (shards.length != rs.getTotalShardCount()) {
      throw new IllegalArgumentException("expected " + rs.getTotalShardCount() + " shards, got " + shards.length);
    }
    for (byte[] s : shards) {
      if (s == null || offset < 0 || length < 0 || s.length < offset + length) {
        throw new IllegalArgumentException("every shard must hold bytes [" + offset + ", " + (offset + length) + ")");
      }
    }
  }
}
