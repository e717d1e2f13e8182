package io.tessera.common.erasure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our codec against the Backblaze codec's output in the test resources (rs-vectors), byte for byte.
 */
class ReedSolomonVectorsTest {
  private static Path vectors() throws Exception {
    return Path.of(ReedSolomonVectorsTest.class.getResource("/rs-vectors").toURI());
  }

  static Stream<String> vectorSets() throws Exception {
    try (Stream<Path> files = Files.list(vectors())) {
      List<String> names =
          files
              .map(p -> p.getFileName().toString())
              .filter(n -> n.endsWith(".data"))
              .map(n -> n.substring(0, n.length() - ".data".length()))
              .sorted()
              .toList();
      assertThat(names).as("vector sets").hasSizeGreaterThanOrEqualTo(14);
      return names.stream();
    }
  }

  private record Vector(int k, int m, int size, byte[][] shards) {}

  private static Vector load(String name) throws Exception {
    String[] parts = name.split("-");
    int k = Integer.parseInt(parts[1]);
    int m = Integer.parseInt(parts[2]);
    int size = Integer.parseInt(parts[3]);
    byte[] data = Files.readAllBytes(vectors().resolve(name + ".data"));
    byte[] parity = Files.readAllBytes(vectors().resolve(name + ".parity"));
    assertThat(data.length).isEqualTo(k * size);
    assertThat(parity.length).isEqualTo(m * size);
    byte[][] shards = new byte[k + m][];
    for (int i = 0; i < k; i++) {
      shards[i] = Arrays.copyOfRange(data, i * size, (i + 1) * size);
    }
    for (int i = 0; i < m; i++) {
      shards[k + i] = Arrays.copyOfRange(parity, i * size, (i + 1) * size);
    }
    return new Vector(k, m, size, shards);
  }

  /** Every vector set on every coding loop this JVM runs (the Vector API loop needs its module). */
  static Stream<Arguments> vectorSetsAndLoops() throws Exception {
    List<String> sets = vectorSets().toList();
    List<Arguments> out = new ArrayList<>();
    for (CodingLoops loop : CodingLoops.values()) {
      if (loop != CodingLoops.BACKBLAZE && !CodingLoops.vectorAvailable()) {
        continue;
      }
      sets.forEach(s -> out.add(Arguments.of(s, loop)));
    }
    return out.stream();
  }

  @Test
  void theVectorLoopRunsWhereverTheBuildRunsTests() {
    // surefire starts the test JVM with --add-modules jdk.incubator.vector: the loop must be
    // tested, not skipped
    assertThat(CodingLoops.vectorAvailable()).isTrue();
    assertThat(CodingLoops.best()).isEqualTo(CodingLoops.ADAPTIVE);
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("vectorSetsAndLoops")
  void encodingProducesExactlyTheUpstreamParity(String name, CodingLoops loop) throws Exception {
    Vector v = load(name);
    byte[][] shards = new byte[v.k + v.m][];
    for (int i = 0; i < v.k + v.m; i++) {
      shards[i] = i < v.k ? v.shards[i].clone() : new byte[v.size];
    }
    ErasureCodec codec = ErasureCodec.reedSolomon(v.k, v.m, loop);
    codec.encode(shards, 0, v.size);
    for (int p = v.k; p < v.k + v.m; p++) {
      assertThat(shards[p]).as("parity shard %d of %s", p - v.k, name).isEqualTo(v.shards[p]);
    }
    assertThat(codec.isParityCorrect(shards, 0, v.size)).isTrue();
  }

  @ParameterizedTest(name = "{0} on {1}")
  @MethodSource("vectorSetsAndLoops")
  void anyKShardsRebuildTheOthersExactly(String name, CodingLoops loop) throws Exception {
    Vector v = load(name);
    int n = v.k + v.m;
    ErasureCodec codec = ErasureCodec.reedSolomon(v.k, v.m, loop);
    Random rnd = new Random(name.hashCode());
    List<boolean[]> patterns = new ArrayList<>();
    for (int lost = 1; lost <= v.m; lost++) {
      for (int trial = 0; trial < 6; trial++) {
        boolean[] present = new boolean[n];
        Arrays.fill(present, true);
        int erased = 0;
        while (erased < lost) {
          int i = rnd.nextInt(n);
          if (present[i]) {
            present[i] = false;
            erased++;
          }
        }
        patterns.add(present);
      }
    }
    boolean[] allParityLost = new boolean[n];
    Arrays.fill(allParityLost, 0, v.k, true);
    patterns.add(allParityLost);
    boolean[] firstMDataLost = new boolean[n];
    Arrays.fill(firstMDataLost, true);
    Arrays.fill(firstMDataLost, 0, Math.min(v.m, v.k), false);
    patterns.add(firstMDataLost);
    for (boolean[] present : patterns) {
      byte[][] shards = new byte[n][];
      for (int i = 0; i < n; i++) {
        shards[i] = present[i] ? v.shards[i].clone() : new byte[v.size];
      }
      codec.reconstruct(shards, present, 0, v.size);
      for (int i = 0; i < n; i++) {
        assertThat(shards[i])
            .as("shard %d of %s with present=%s", i, name, Arrays.toString(present))
            .isEqualTo(v.shards[i]);
      }
    }
  }

  @Test
  void tooFewShardsIsRefusedWithTheReason() {
    ErasureCodec codec = ErasureCodec.reedSolomon(4, 2);
    byte[][] shards = new byte[6][16];
    boolean[] present = {true, true, true, false, false, false};
    assertThatThrownBy(() -> codec.reconstruct(shards, present, 0, 16))
        .hasMessageContaining("needs 4 shards")
        .hasMessageContaining("3 are present");
    assertThatThrownBy(() -> ErasureCodec.reedSolomon(0, 2)).hasMessageContaining("1 <= k");
  }
}
