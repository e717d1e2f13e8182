package io.tessera.common.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import java.util.EnumMap;
import java.util.Locale;

/**
 * Counts and times the requests of one protocol per operation. The label lookups are done once per
 * operation up front, so recording a request costs two atomic adds and a bucket search.
 */
public final class RequestMetrics<E extends Enum<E>> {
  private final EnumMap<E, CounterDataPoint> ok;
  private final EnumMap<E, CounterDataPoint> failed;
  private final EnumMap<E, DistributionDataPoint> seconds;

  private final boolean counting;

  RequestMetrics(boolean counting, Class<E> ops, Counter counter, Histogram latency) {
    this.counting = counting;
    ok = new EnumMap<>(ops);
    failed = new EnumMap<>(ops);
    seconds = new EnumMap<>(ops);
    for (E op : ops.getEnumConstants()) {
      if (op.name().endsWith("_NOT_SET")) {
        continue; // a protobuf oneof's "no operation": refused before it is counted
      }
      String name = op.name().toLowerCase(Locale.ROOT);
      ok.put(op, counter.labelValues(name, "ok"));
      failed.put(op, counter.labelValues(name, "error"));
      seconds.put(op, latency.labelValues(name));
    }
  }

  /** One request of {@code op} that arrived at {@code startNanos} (System.nanoTime) is answered. */
  public void record(E op, long startNanos, boolean succeeded) {
    if (!counting || !ok.containsKey(op)) {
      return;
    }
    (succeeded ? ok : failed).get(op).inc();
    seconds.get(op).observe((System.nanoTime() - startNanos) / 1e9);
  }
}
