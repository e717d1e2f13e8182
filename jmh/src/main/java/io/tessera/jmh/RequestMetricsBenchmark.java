package io.tessera.jmh;

import io.tessera.common.config.Config;
import io.tessera.common.metrics.MetricsConfigKeys;
import io.tessera.common.metrics.RequestMetrics;
import io.tessera.common.metrics.ServerMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a server pays per request to count and time it ({@code tessera.metrics.enabled} true and
 * false), from two threads as a data server's workers record, and what one scrape of a server's
 * registry costs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RequestMetricsBenchmark {
  /** Operations like a protocol's. */
  public enum Op {
    READ,
    WRITE,
    LOCK_READ,
    UNLOCK,
    SYNC
  }

  @Param({"true", "false"})
  public boolean counting;

  private ServerMetrics metrics;
  private RequestMetrics<Op> requests;

  @Setup
  public void setUp() {
    metrics =
        new ServerMetrics(
            "bench", Config.of(Map.of(MetricsConfigKeys.ENABLED.key(), String.valueOf(counting))));
    requests = metrics.requests(Op.class, "Benchmark requests");
  }

  @Benchmark
  @Threads(2)
  public void recordOneRequest() {
    requests.record(Op.WRITE, System.nanoTime() - 250_000, true);
  }

  @Benchmark
  @Threads(1)
  public int scrapeTheRegistry() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64 << 10);
    metrics.writeText(out);
    return out.size();
  }
}
