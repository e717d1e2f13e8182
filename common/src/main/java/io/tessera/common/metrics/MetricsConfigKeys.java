package io.tessera.common.metrics;

import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.ConfigSection;
import java.util.List;

/** Settings every server reads about its metrics. */
public final class MetricsConfigKeys {
  private MetricsConfigKeys() {}

  public static final ConfigKey<Boolean> ENABLED =
      ConfigKey.bool(
          "tessera.metrics.enabled",
          true,
          "count and time requests for /metrics; false leaves only the JVM's metrics (to measure"
              + " what counting costs)");

  public static final ConfigSection SECTION = new ConfigSection("Metrics", List.of(ENABLED));
}
