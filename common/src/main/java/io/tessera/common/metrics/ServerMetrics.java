package io.tessera.common.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.tessera.common.config.Config;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The metrics of one server: a registry of its own (tests run several servers in one JVM), the
 * JVM's metrics, and builders that keep every name under {@code tessera_<component>_}.
 */
public final class ServerMetrics {
  /** Latency buckets from 100 µs to 10 s: a cached stat to a slow fsync'd write under load. */
  private static final double[] LATENCY_BOUNDS = {
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private final PrometheusRegistry registry;
  private final String prefix;
  private final boolean counting;

  /**
   * {@code component}: "meta", "data", "nfs" or "qos"; every metric is named tessera_component_.
   * {@code config}: with {@link MetricsConfigKeys#ENABLED} false, requests are not counted.
   */
  public ServerMetrics(String component, Config config) {
    this(new PrometheusRegistry(), component, config.get(MetricsConfigKeys.ENABLED));
    JvmMetrics.builder().register(registry);
  }

  private ServerMetrics(PrometheusRegistry registry, String component, boolean counting) {
    this.registry = registry;
    this.prefix = "tessera_" + component + "_";
    this.counting = counting;
  }

  /**
   * Metrics of another component running in this server, shown at the same /metrics under {@code
   * tessera_<component>_} (a data server with the QoS scheduler embedded shows tessera_qos_).
   */
  public ServerMetrics alongside(String component) {
    return new ServerMetrics(registry, component, counting);
  }

  /** Whether requests are counted and timed (tessera.metrics.enabled). */
  public boolean counting() {
    return counting;
  }

  public PrometheusRegistry registry() {
    return registry;
  }

  /** A counter named {@code tessera_<component>_<name>_total}. */
  public Counter counter(String name, String help, String... labels) {
    return Counter.builder().name(prefix + name).help(help).labelNames(labels).register(registry);
  }

  /** A counter read at each scrape, named {@code tessera_<component>_<name>_total}. */
  public void counterOf(String name, String help, LongSupplier value) {
    CounterWithCallback.builder()
        .name(prefix + name)
        .help(help)
        .callback(cb -> cb.call(value.getAsLong()))
        .register(registry);
  }

  /**
   * A counter per value of one label, read at each scrape (e.g. bytes served per application):
   * {@code tessera_<component>_<name>_total{label="..."}}.
   */
  public void countersOf(
      String name, String help, String label, Supplier<Map<String, ? extends Number>> values) {
    CounterWithCallback.builder()
        .name(prefix + name)
        .help(help)
        .labelNames(label)
        .callback(cb -> values.get().forEach((k, v) -> cb.call(v.doubleValue(), k)))
        .register(registry);
  }

  /** A latency histogram named {@code tessera_<component>_<name>_seconds}. */
  public Histogram seconds(String name, String help, String... labels) {
    return Histogram.builder()
        .name(prefix + name + "_seconds")
        .help(help)
        .unit(Unit.SECONDS)
        .classicOnly()
        .classicUpperBounds(LATENCY_BOUNDS)
        .labelNames(labels)
        .register(registry);
  }

  /** A gauge read at each scrape, named {@code tessera_<component>_<name>}. */
  public void gauge(String name, String help, DoubleSupplier value) {
    GaugeWithCallback.builder()
        .name(prefix + name)
        .help(help)
        .callback(cb -> cb.call(value.getAsDouble()))
        .register(registry);
  }

  /** Per-operation request counts and latencies of one protocol, named after {@code ops}. */
  public <E extends Enum<E>> RequestMetrics<E> requests(Class<E> ops, String what) {
    return new RequestMetrics<>(
        counting,
        ops,
        counter("requests", what + " answered, by operation and outcome", "op", "outcome"),
        seconds("request_duration", what + ": time from arrival to answer, by operation", "op"));
  }

  /** Writes every metric in the Prometheus text format (version 0.0.4). */
  public void writeText(OutputStream out) throws IOException {
    TEXT.write(out, registry.scrape());
  }

  /** The content type of {@link #writeText}. */
  public static String textContentType() {
    return PrometheusTextFormatWriter.CONTENT_TYPE;
  }

  private static final PrometheusTextFormatWriter TEXT = PrometheusTextFormatWriter.create();
}
