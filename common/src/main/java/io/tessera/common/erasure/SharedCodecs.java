package io.tessera.common.erasure;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The process's codecs, one per k+m shape: writers, readers and rebuilds all code with them. */
final class SharedCodecs {
  private static final Map<Long, ErasureCodec> CODECS = new ConcurrentHashMap<>();

  private SharedCodecs() {}

  static ErasureCodec get(int k, int m) {
    return CODECS.computeIfAbsent(((long) k << 32) | m, key -> ErasureCodec.reedSolomon(k, m));
  }
}
