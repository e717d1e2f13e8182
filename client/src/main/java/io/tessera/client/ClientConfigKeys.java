package io.tessera.client;

import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.ConfigSection;
import io.tessera.common.config.RpcConfigKeys;
import io.tessera.common.config.SecurityConfigKeys;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/** Settings of the client library. The defaults suit a local cluster. */
public final class ClientConfigKeys {
  private ClientConfigKeys() {}

  /** Meta group and identity. */
  public static final class Cluster {
    private Cluster() {}

    /** Comma-separated host:port of the meta replicas. */
    public static final ConfigKey<String> META =
        ConfigKey.string(
            "tessera.client.meta",
            "127.0.0.1:9860",
            "comma-separated host:port of the meta replicas");

    /** Application name carried by every request (QoS shares are per application). */
    public static final ConfigKey<String> APP_ID =
        ConfigKey.string(
            "tessera.client.app-id",
            "default",
            "application name carried by every request (QoS shares are per application)");

    /** How long metadata calls keep retrying through leader changes before failing. */
    public static final ConfigKey<Duration> META_RETRY_FOR =
        ConfigKey.duration(
            "tessera.client.meta-retry-for",
            Duration.ofSeconds(30),
            "how long metadata calls keep retrying through leader changes before failing");

    public static final ConfigKey<Boolean> USE_PROXIES =
        ConfigKey.bool(
            "tessera.client.use-proxies",
            true,
            "send to the QoS proxy in front of a data server when it has one; false: always"
                + " direct (no shares; for measuring what the proxies cost)");

    /** Whether lookups and listings go on from another meta replica while the leader is lost. */
    public static final ConfigKey<Boolean> READS_DURING_ELECTION =
        ConfigKey.bool(
            "tessera.client.reads-during-election",
            true,
            "while no meta leader answers (an election, 1-2 s), another replica answers stat, open and list once it has"
                + " applied all this client has seen; false: wait for the new leader");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Meta group and identity",
            List.of(META, APP_ID, META_RETRY_FOR, READS_DURING_ELECTION, USE_PROXIES));
  }

  /** Streams. */
  public static final class Streams {
    private Streams() {}

    /**
     * Bytes an output stream gathers before it writes. A write that grows the file waits for one
     * size record in the meta group, so larger writes mean fewer Raft rounds per GiB.
     */
    public static final ConfigKey<Long> WRITE_BUFFER =
        ConfigKey.size(
            "tessera.client.write-buffer",
            24L << 20,
            "bytes an output stream gathers before it writes (rounded up to whole stripes); a stream keeps"
                + " writes-in-flight + 1 such buffers");

    /** Writes an output stream keeps in flight. */
    public static final ConfigKey<Integer> WRITES_IN_FLIGHT =
        ConfigKey.integer(
            "tessera.client.writes-in-flight", 2, "writes an output stream keeps in flight");

    /** Bytes an input stream asks for in one request. */
    public static final ConfigKey<Long> READ_CHUNK =
        ConfigKey.size(
            "tessera.client.read-chunk",
            8L << 20,
            "bytes an input stream asks for in one request (rounded up to whole stripes)");

    /** Requests an input stream keeps in flight ahead of the reader. */
    public static final ConfigKey<Integer> READS_AHEAD =
        ConfigKey.integer(
            "tessera.client.reads-ahead",
            4,
            "requests an input stream keeps in flight ahead of the reader");

    /** Whether closing a file this client created makes what it wrote durable first. */
    public static final ConfigKey<Boolean> SYNC_ON_CLOSE =
        ConfigKey.bool(
            "tessera.client.sync-on-close",
            true,
            "closing a file this client created (or its stream) first makes what it wrote durable"
                + " against power loss on every server of the file, as sync() does (a file opened to"
                + " change it syncs when asked); false: close returns at once, and writes not synced"
                + " survive process crashes only");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Streams",
            List.of(WRITE_BUFFER, WRITES_IN_FLIGHT, READ_CHUNK, READS_AHEAD, SYNC_ON_CLOSE));
  }

  /** Log-structured files. */
  public static final class Logs {
    private Logs() {}

    /** Whether the last writer of a log file to close flattens its index. */
    public static final ConfigKey<Boolean> FLATTEN_ON_CLOSE =
        ConfigKey.bool(
            "tessera.client.log-flatten-on-close",
            true,
            "the last writer of a log file to close merges every writer's index into one, so"
                + " opens read one index; false: opens merge them until fs flatten (for measuring"
                + " what flattening saves)");

    public static final ConfigSection SECTION =
        new ConfigSection("Log-structured files", List.of(FLATTEN_ON_CLOSE));
  }

  /** Region locks (pCFS). */
  public static final class Regions {
    private Regions() {}

    public static final ConfigKey<Boolean> REGION_CACHE =
        ConfigKey.bool(
            "tessera.client.region-cache",
            true,
            "a released region lock stays with this client until another client asks for it, so"
                + " locking it again costs no round trip; false: every lock and unlock asks the"
                + " leader (for measuring what caching saves)");

    public static final ConfigKey<Duration> REGION_LOCK_TIMEOUT =
        ConfigKey.duration(
            "tessera.client.region-lock-timeout",
            Duration.ofSeconds(60),
            "how long TesseraFile.lock waits for a region other clients hold before it gives up");

    public static final ConfigSection SECTION =
        new ConfigSection("Region locks", List.of(REGION_CACHE, REGION_LOCK_TIMEOUT));
  }

  /** Failures and leases. */
  public static final class Failures {
    private Failures() {}

    /**
     * How long a data server that failed a request (and its retry) is skipped before it is tried
     * again.
     */
    public static final ConfigKey<Duration> DOWN_SERVER_RETRY_AFTER =
        ConfigKey.duration(
            "tessera.client.down-server-retry-after",
            Duration.ofSeconds(10),
            "how long a data server that failed a request and its retry is skipped before it is tried again");

    /** Lease of the stripe locks a parity write holds between its two phases. */
    public static final ConfigKey<Duration> LOCK_LEASE =
        ConfigKey.duration(
            "tessera.client.lock-lease",
            Duration.ofSeconds(30),
            "lease of the stripe locks a parity write holds between its phases; a writer that "
                + "dies holding them blocks others for at most this long");

    /** Every client setting, for documentation. */
    public static final ConfigKey<Duration> PARTIAL_LEASE =
        ConfigKey.duration(
            "tessera.client.partial-lease",
            Duration.ofSeconds(60),
            "how long a put's hidden partial copy outlives its writer: the writer renews it every"
                + " third of this, and the cluster removes a copy not renewed for this long (a killed put)");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Failures and leases", List.of(DOWN_SERVER_RETRY_AFTER, LOCK_LEASE, PARTIAL_LEASE));
  }

  public static final List<ConfigSection> SECTIONS =
      List.of(Cluster.SECTION, Streams.SECTION, Logs.SECTION, Regions.SECTION, Failures.SECTION);

  public static final List<ConfigKey<?>> ALL = ConfigSection.keysOf(SECTIONS);

  /** Every key a client process reads: its own, and the RPC layer's and security's. */
  public static final List<ConfigKey<?>> READ_BY_CLIENTS =
      Stream.of(ALL, RpcConfigKeys.ALL, SecurityConfigKeys.ALL).flatMap(List::stream).toList();
}
