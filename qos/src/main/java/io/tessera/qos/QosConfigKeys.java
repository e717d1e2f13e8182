package io.tessera.qos;

import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.ConfigSection;
import java.time.Duration;
import java.util.List;

/**
 * Settings of a QoS scheduling point: a proxy, or a data server with the scheduler embedded. The
 * defaults suit a local cluster.
 */
public final class QosConfigKeys {
  private QosConfigKeys() {}

  /** Scheduling. */
  public static final class Scheduling {
    private Scheduling() {}

    public static final ConfigKey<Integer> DEPTH =
        ConfigKey.integer(
            "tessera.qos.depth",
            4,
            "requests a proxy keeps at its data server at once (SFQ depth D): deeper keeps the server"
                + " busier, shallower makes shares tighter");
    public static final ConfigKey<Long> REQUEST_COST =
        ConfigKey.size(
            "tessera.qos.request-cost",
            64L << 10,
            "bytes each request costs on top of its own, so small random requests are not free");
    public static final ConfigKey<Duration> SETTINGS_REFRESH =
        ConfigKey.duration(
            "tessera.qos.settings-refresh",
            Duration.ofMillis(500),
            "how often a proxy reads the applications' settings from the meta group");

    public static final ConfigSection SECTION =
        new ConfigSection("Scheduling", List.of(DEPTH, REQUEST_COST, SETTINGS_REFRESH));
  }

  /** Where the scheduler runs. */
  public static final class Placement {
    private Placement() {}

    public static final String PROXY = "proxy";
    public static final String EMBEDDED = "embedded";
    public static final ConfigKey<String> PLACEMENT =
        ConfigKey.choice(
            "tessera.qos.placement",
            PROXY,
            "where requests are scheduled: proxy (a process in front of each data server, as"
                + " tessera local --qos starts; clients' data takes one more socket hop) or embedded"
                + " (in each data server's own request pipeline, with the same shares, reservations"
                + " and limits and no extra hop; set on the data servers, which then also serve"
                + " qos.proto and read the settings below)",
            List.of(PROXY, EMBEDDED));

    public static final ConfigSection SECTION = new ConfigSection("Placement", List.of(PLACEMENT));
  }

  /** How a proxy learns each application's service at the other servers. */
  public static final class Totals {
    private Totals() {}

    public static final ConfigKey<Duration> INTERVAL =
        ConfigKey.duration(
            "tessera.qos.exchange-interval",
            Duration.ofMillis(100),
            "with exchange: a proxy sends its per-application service totals to the others this"
                + " often (0: only by bytes, below)");
    public static final ConfigKey<Long> BYTES =
        ConfigKey.size(
            "tessera.qos.exchange-bytes",
            64L << 20,
            "or sooner, once it served this many bytes since it last sent them");

    public static final String PIGGYBACK = "piggyback";
    public static final String EXCHANGE = "exchange";
    public static final String NONE = "none";
    public static final ConfigKey<String> SOURCE =
        ConfigKey.choice(
            "tessera.qos.totals",
            PIGGYBACK,
            "how a proxy learns each application's service at the other servers: piggyback (every"
                + " request carries what its client sent elsewhere since its last request here, as"
                + " dmClock's delta) or exchange (the proxies send each other what they served, below;"
                + " counts only what proxies saw, for clients not trusted to report) or none (each"
                + " proxy shares out its own server only)",
            List.of(PIGGYBACK, EXCHANGE, NONE));

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Service at the other servers (total-service fairness)",
            List.of(SOURCE, INTERVAL, BYTES));
  }

  public static final List<ConfigSection> SECTIONS =
      List.of(Placement.SECTION, Scheduling.SECTION, Totals.SECTION);

  public static final List<ConfigKey<?>> ALL = ConfigSection.keysOf(SECTIONS);
}
