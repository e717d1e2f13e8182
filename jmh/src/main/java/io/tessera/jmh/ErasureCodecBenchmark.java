package io.tessera.jmh;

import io.tessera.common.erasure.CodingLoops;
import io.tessera.common.erasure.ErasureCodec;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Single-thread Reed-Solomon throughput of one stripe. Multiply ops/s by {@code k * unit} for MB/s
 * of data: encode computes the m parity units; decode rebuilds 1 or m lost data units.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"--add-modules", "jdk.incubator.vector"})
public class ErasureCodecBenchmark {
  @Param({"4+2", "6+3", "8+2", "10+4"})
  public String code;

  @Param({"65536", "1048576"})
  public int unit;

  /** BACKBLAZE (its default table loop) or VECTOR (ours, JDK Vector API). */
  @Param({"BACKBLAZE", "VECTOR"})
  public CodingLoops loop;

  private ErasureCodec codec;
  private byte[][] shards;
  private byte[][] work;
  private boolean[] oneLost;
  private boolean[] mLost;
  private int k;
  private int m;

  @Setup(Level.Trial)
  public void setUp() {
    String[] km = code.split("\\+");
    k = Integer.parseInt(km[0]);
    m = Integer.parseInt(km[1]);
    codec = ErasureCodec.reedSolomon(k, m, loop);
    shards = new byte[k + m][unit];
    Random rnd = new Random(1);
    for (int i = 0; i < k; i++) {
      rnd.nextBytes(shards[i]);
    }
    codec.encode(shards, 0, unit);
    work = new byte[k + m][];
    for (int i = 0; i < k + m; i++) {
      work[i] = shards[i].clone();
    }
    oneLost = new boolean[k + m];
    Arrays.fill(oneLost, true);
    oneLost[0] = false;
    mLost = new boolean[k + m];
    Arrays.fill(mLost, true);
    Arrays.fill(mLost, 0, m, false);
  }

  @Benchmark
  public void encode(Blackhole bh) {
    codec.encode(work, 0, unit);
    bh.consume(work);
  }

  @Benchmark
  public void decodeOneDataUnitMissing(Blackhole bh) {
    codec.reconstruct(work, oneLost, 0, unit);
    bh.consume(work);
  }

  @Benchmark
  public void decodeMDataUnitsMissing(Blackhole bh) {
    codec.reconstruct(work, mLost, 0, unit);
    bh.consume(work);
  }
}
