package io.tessera.data.server;

import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.ConfigSection;
import java.time.Duration;
import java.util.List;

/** Settings of a data server. The defaults give a working local cluster. */
public final class DataServerConfigKeys {
  private DataServerConfigKeys() {}

  /** Process and cluster. */
  public static final class Server {
    private Server() {}

    public static final ConfigKey<String> BIND_HOST =
        ConfigKey.string(
            "tessera.data.bind-host", "127.0.0.1", "address the data server listens on");
    public static final ConfigKey<Integer> PORT =
        ConfigKey.integer("tessera.data.port", 9870, "TCP port for clients (0 picks a free one)");
    public static final ConfigKey<String> ADVERTISED_ADDRESS =
        ConfigKey.string(
            "tessera.data.advertised-address",
            "",
            "HOST or HOST:PORT the meta group tells clients to reach this server at, where that is"
                + " not where it listens (behind NAT, in a container, bound to 0.0.0.0); empty: the"
                + " bind host and the port it listens on");
    public static final ConfigKey<Integer> WORKER_THREADS =
        ConfigKey.integer(
            "tessera.data.worker-threads",
            8,
            "threads that run storage operations off the network threads");
    public static final ConfigKey<Duration> HEARTBEAT_INTERVAL =
        ConfigKey.duration(
            "tessera.data.heartbeat-interval",
            Duration.ofSeconds(1),
            "how often the server reports to the meta leader");
    public static final ConfigKey<String> META_ADDRESSES =
        ConfigKey.string(
            "tessera.data.meta",
            "127.0.0.1:9860",
            "comma-separated host:port of the meta replicas");
    public static final ConfigKey<String> PROXY =
        ConfigKey.string(
            "tessera.data.proxy",
            "",
            "host:port of the QoS proxy in front of this server, where clients send (empty: none)");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Process and cluster",
            List.of(
                BIND_HOST,
                PORT,
                ADVERTISED_ADDRESS,
                WORKER_THREADS,
                HEARTBEAT_INTERVAL,
                META_ADDRESSES,
                PROXY));
  }

  /** Shard store. */
  public static final class Store {
    private Store() {}

    public static final ConfigKey<Long> MIN_FREE_SPACE =
        ConfigKey.size(
            "tessera.data.min-free-space",
            64L << 20,
            "writes are refused NO_SPACE while the disk has less free space than this (keep it below the meta group's"
                + " tessera.meta.placement-min-free, so full servers get no new files first)");

    /**
     * Either way the store reads what the other wrote, so the setting can change on a running
     * cluster.
     */
    public static final ConfigKey<Boolean> VALUE_FILES =
        ConfigKey.bool(
            "tessera.data.value-files",
            true,
            "keep each shard version of 32 KiB or more in a file of its own; false: in RocksDB's blob files, through"
                + " its write-ahead log (slower)");

    /**
     * Off by default: units written past the page cache must come back from the disk, so reading a
     * file just written ran at the disk's speed of the hour (docs/benchmarks, 2026-11-27). On a
     * machine where the kernel's copy into cache pages costs data servers much CPU, direct writes
     * spare it.
     */
    public static final ConfigKey<Boolean> DIRECT_WRITES =
        ConfigKey.bool(
            "tessera.data.direct-writes",
            false,
            "write value files with direct I/O (O_DIRECT), past the page cache, where the file system allows it (not"
                + " tmpfs): spares the kernel's copy, but a file read right after it is written comes from the disk;"
                + " false: through the page cache");

    /**
     * Streaming reads, rebuilds and the scrubber (which then checks the device's bytes) read whole
     * units; a unit already cached, and any read of part of a unit, go through the cache.
     */
    public static final ConfigKey<Boolean> DIRECT_READS =
        ConfigKey.bool(
            "tessera.data.direct-reads",
            true,
            "read a whole uncached unit with direct I/O and keep it out of the page cache; false: every read fills the"
                + " cache, so re-reading a hot file is served from memory");

    /**
     * Why spares: see {@code SpareFiles} (creates after many deletes are slow on ext4 without a
     * journal).
     */
    public static final ConfigKey<Long> SPARE_VALUE_FILES =
        ConfigKey.size(
            "tessera.data.spare-value-files",
            256L << 20,
            "bytes of removed value files kept to hold new values instead of being unlinked (0: unlink each);"
                + " kept files count as used disk space");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Shard store",
            List.of(MIN_FREE_SPACE, VALUE_FILES, DIRECT_WRITES, DIRECT_READS, SPARE_VALUE_FILES));
  }

  /** Stripe locks and snapshot gate. */
  public static final class Coordination {
    private Coordination() {}

    public static final ConfigKey<Duration> MAX_LOCK_LEASE =
        ConfigKey.duration(
            "tessera.data.max-lock-lease",
            Duration.ofSeconds(120),
            "longest lease a writer's stripe lock gets, whatever the writer asks for (writers ask"
                + " for tessera.client.lock-lease, up to four times that on a loaded cluster)");
    public static final ConfigKey<Duration> MAX_LOCK_HOLD =
        ConfigKey.duration(
            "tessera.data.max-lock-hold",
            Duration.ofMinutes(10),
            "longest a writer's renewals keep its stripe lock after the grant; past it the lock is"
                + " an orphan even if its writer still renews (a writer renews its locks while it"
                + " waits on a loaded cluster, and stops when it dies or is cut off)");
    public static final ConfigKey<Duration> SNAPSHOT_GATE_TIMEOUT =
        ConfigKey.duration(
            "tessera.data.snapshot-gate-timeout",
            Duration.ofSeconds(5),
            "a write gate closed by a snapshot's PREPARE this long without COMMIT or ABORT is settled through the meta"
                + " group (the coordinator died)");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Stripe locks and snapshot gate",
            List.of(MAX_LOCK_LEASE, MAX_LOCK_HOLD, SNAPSHOT_GATE_TIMEOUT));
  }

  /** Scrubbing. */
  public static final class Scrubbing {
    private Scrubbing() {}

    public static final ConfigKey<Long> SCRUB_RATE =
        ConfigKey.size(
            "tessera.data.scrub-rate",
            4L << 20,
            "bytes per second the background scrubber reads to check stored shards' checksums (0: no scrubbing)");

    public static final ConfigSection SECTION = new ConfigSection("Scrubbing", List.of(SCRUB_RATE));
  }

  /** For measuring only. */
  public static final class Testing {
    private Testing() {}

    /**
     * cgroup v1's blkio throttle, all this machine offers, does not count buffered writes, so the
     * QoS measurements with storage as the bottleneck cap the server instead (docs/benchmarks,
     * 2026-11-30).
     */
    public static final ConfigKey<Long> DEVICE_CAP =
        ConfigKey.size(
            "tessera.data.test-device-cap",
            0L,
            "FOR MEASURING ONLY: serve clients' bytes (written and read) no faster than this many a"
                + " second, one request after another, as a slower device would (0: off). Makes"
                + " storage, not CPU, what applications wait for on a small test machine");

    public static final ConfigSection SECTION = new ConfigSection("Testing", List.of(DEVICE_CAP));
  }

  public static final List<ConfigSection> SECTIONS =
      List.of(
          Server.SECTION, Store.SECTION, Coordination.SECTION, Scrubbing.SECTION, Testing.SECTION);

  public static final List<ConfigKey<?>> ALL = ConfigSection.keysOf(SECTIONS);
}
