package io.tessera.meta.server;

import io.tessera.common.config.Config;
import io.tessera.common.config.ConfigKey;
import io.tessera.common.config.ConfigSection;
import io.tessera.common.config.Durations;
import io.tessera.meta.registry.DefaultLayout;
import java.time.Duration;
import java.util.List;

/** Settings of a meta replica. The defaults give a working local cluster. */
public final class MetaServerConfigKeys {
  private MetaServerConfigKeys() {}

  /** Data server liveness. */
  public static final class DataServers {
    private DataServers() {}

    public static final ConfigKey<Duration> DATA_SERVER_TIMEOUT =
        ConfigKey.duration(
            "tessera.meta.data-server-timeout",
            Duration.ofSeconds(5),
            "a data server silent this long is down (found within heartbeat interval + 1.25 x this; DePFS bound:"
                + " heartbeat interval + 2 x this)");
    public static final ConfigKey<Duration> HEARTBEAT_INTERVAL =
        ConfigKey.duration(
            "tessera.meta.heartbeat-interval",
            Duration.ofSeconds(1),
            "heartbeat interval announced to data servers");
    public static final ConfigKey<Integer> RECLAIM_PER_SECOND =
        ConfigKey.integer(
            "tessera.meta.reclaim-per-second",
            1024,
            1,
            "removed files whose shards the leader deletes from the data servers per second, at most");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Data servers: liveness, reclaim of removed files",
            List.of(DATA_SERVER_TIMEOUT, HEARTBEAT_INTERVAL, RECLAIM_PER_SECOND));
  }

  /** Placement of new files. */
  public static final class Placement {
    private Placement() {}

    public static final ConfigKey<Long> DEFAULT_STRIPE_UNIT =
        ConfigKey.size(
            "tessera.meta.default-stripe-unit",
            1L << 20,
            "stripe unit of files created with no policy of their own or of their directory");
    public static final ConfigKey<DefaultLayout> DEFAULT_LAYOUT =
        new ConfigKey<>(
            "tessera.meta.default-layout",
            DefaultLayout.AUTO,
            "layout of files with no policy of their own or of a directory above them: auto (the widest"
                + " of 6+3, 4+2, 2+1, 1+1 the registered data servers can hold) or K+M",
            DefaultLayout::parse);
    public static final ConfigKey<Integer> CREATE_LIVE_BEYOND_K =
        ConfigKey.integer(
            "tessera.meta.create-live-beyond-k",
            1,
            "a file with parity is created while k + this many of its servers"
                + " are live (at most k + m); its other units go to registered servers that are down, stale until they are"
                + " rebuilt");
    public static final ConfigKey<Long> MIN_FREE_SPACE =
        ConfigKey.size(
            "tessera.meta.placement-min-free",
            1L << 30,
            "data servers with less free space than this get no new files");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Placement of new files",
            List.of(DEFAULT_STRIPE_UNIT, DEFAULT_LAYOUT, CREATE_LIVE_BEYOND_K, MIN_FREE_SPACE));
  }

  /** Raft log and elections. */
  public static final class Raft {
    private Raft() {}

    public static final ConfigKey<Duration> ELECTION_TIMEOUT_MIN =
        ConfigKey.duration(
            "tessera.meta.election-timeout-min",
            Duration.ofMillis(1000),
            "shortest Raft election timeout");
    public static final ConfigKey<Duration> ELECTION_TIMEOUT_MAX =
        ConfigKey.duration(
            "tessera.meta.election-timeout-max",
            Duration.ofMillis(2000),
            "longest Raft election timeout");
    public static final ConfigKey<Integer> SNAPSHOT_THRESHOLD =
        ConfigKey.integer(
            "tessera.meta.snapshot-every",
            100_000,
            "log entries between namespace checkpoints (older log is then purged); a replica started again"
                + " goes through the entries since its last checkpoint");
    public static final ConfigKey<Integer> LOG_PURGE_GAP =
        ConfigKey.integer(
            "tessera.meta.log-purge-gap",
            1024,
            "log entries kept below the newest checkpoint (a follower further behind gets the checkpoint)");
    public static final ConfigKey<Long> LOG_SEGMENT_SIZE =
        ConfigKey.size(
            "tessera.meta.log-segment-size",
            32L << 20,
            "Raft log segment size; only whole closed segments are purged after a checkpoint, and a replica"
                + " started again reads every segment not purged (smaller segments start it faster; README)");
    public static final ConfigKey<Boolean> LOG_SYNC =
        ConfigKey.bool(
            "tessera.meta.log-sync",
            true,
            "fsync the Raft log before acknowledging (false: survive process crashes, not power loss)");

    /**
     * Ratis flushes on its own thread while the log worker goes on writing the next entries; an
     * entry still counts as written only once its fsync returned, so durability is the same.
     */
    public static final ConfigKey<Boolean> LOG_ASYNC_FLUSH =
        ConfigKey.bool(
            "tessera.meta.log-async-flush",
            false,
            "fsync the Raft log on a thread of its own, so the next entries are written meanwhile"
                + " (entries still count as logged only once their fsync returned)");

    /**
     * Ratis's own default, 1 ms. 10 ms halved creates from 4 threads with three replicas, and 0 did
     * not beat 1 ms (docs/benchmarks/2026-11-30-same-policy.md).
     */
    public static final ConfigKey<Duration> APPEND_WAIT =
        ConfigKey.duration(
            "tessera.meta.append-wait",
            Duration.ofMillis(1),
            "least time the leader waits between two sends of log entries to a follower, to gather"
                + " more in one (0: send each entry as it comes)");

    public static final ConfigKey<String> BIND_HOST =
        ConfigKey.string(
            "tessera.meta.bind-host",
            "",
            "address this replica listens on for clients and replicas (0.0.0.0: every address);"
                + " empty: the host its --peers entry names, which is also what others reach it at");
    public static final ConfigKey<String> RAFT_TRANSPORT =
        ConfigKey.string(
            "tessera.meta.raft-transport",
            "grpc",
            "transport between meta replicas: grpc (mutual TLS with security on), or netty with"
                + " tessera.security=off (every replica of a group must use the same)");
    public static final ConfigKey<Integer> MAX_BATCH =
        ConfigKey.integer(
            "tessera.meta.max-batch", 512, 1, "most changes group-committed in one log entry");
    public static final ConfigKey<Integer> MAX_ENTRIES_IN_FLIGHT =
        ConfigKey.integer(
            "tessera.meta.max-entries-in-flight",
            16,
            1,
            "log entries the leader pipelines while few changes are outstanding (clients waiting each for"
                + " its own)");

    /**
     * 0: every change waits for the entry in flight and goes in the next one with the others that
     * arrived meanwhile. From 4 threads with three replicas on one machine, pipelining them one an
     * entry (8 here) cost the replicas a quarter more CPU and a third fewer creates; one replica
     * saw no difference (docs/benchmarks/2026-11-30-same-policy.md).
     */
    public static final ConfigKey<Integer> GROUP_COMMIT_ABOVE =
        ConfigKey.integer(
            "tessera.meta.group-commit-above",
            0,
            0,
            "changes outstanding (waiting or in flight as entries commit, on average) above which the"
                + " leader keeps one log entry in flight and sends all that arrive meanwhile together in"
                + " the next: fewer, fuller entries cost the replicas less CPU a change (0: always; at"
                + " or below it, changes are pipelined, an entry each)");

    public static final ConfigKey<Long> STATE_MIN_FREE =
        ConfigKey.size(
            "tessera.meta.min-free-space",
            64L << 20,
            "the leader refuses namespace changes that add (creates, mkdirs, renames, settings) NO_SPACE"
                + " while its state directory's disk has less free space than this; removes and"
                + " truncates go on, so space can be freed");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Raft log and elections",
            List.of(
                STATE_MIN_FREE,
                ELECTION_TIMEOUT_MIN,
                ELECTION_TIMEOUT_MAX,
                SNAPSHOT_THRESHOLD,
                LOG_PURGE_GAP,
                LOG_SEGMENT_SIZE,
                LOG_SYNC,
                LOG_ASYNC_FLUSH,
                APPEND_WAIT,
                BIND_HOST,
                RAFT_TRANSPORT,
                MAX_BATCH,
                MAX_ENTRIES_IN_FLIGHT,
                GROUP_COMMIT_ABOVE));
  }

  /** File-system snapshots. */
  public static final class Snapshots {
    private Snapshots() {}

    public static final ConfigKey<Duration> FS_SNAPSHOT_DRAIN_TIMEOUT =
        ConfigKey.duration(
            "tessera.meta.fs-snapshot-drain-timeout",
            Duration.ofSeconds(1),
            "how long a data server may take to drain the writes that take its epoch when they land before it answers a"
                + " snapshot BUSY (the attempt is retried after a back-off)");
    public static final ConfigKey<Duration> FS_SNAPSHOT_GIVE_UP =
        ConfigKey.duration(
            "tessera.meta.fs-snapshot-give-up",
            Duration.ofSeconds(60),
            "how long `snapshot create` keeps retrying refused attempts before it reports BUSY");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "File-system snapshots", List.of(FS_SNAPSHOT_DRAIN_TIMEOUT, FS_SNAPSHOT_GIVE_UP));
  }

  /** Recovery. */
  public static final class Recovery {
    private Recovery() {}

    public static final ConfigKey<Duration> REPLACE_AFTER =
        ConfigKey.duration(
            "tessera.meta.replace-after",
            Duration.ofMinutes(10),
            "a data server down this long is replaced: its shards are rebuilt on other servers"
                + " (keep it longer than a reboot, so a planned restart moves nothing)");
    public static final ConfigKey<Long> REBUILD_RATE =
        ConfigKey.size(
            "tessera.meta.rebuild-rate",
            48L << 20,
            "bytes per second the recovery coordinator writes when it rebuilds stale shards (0: no limit); it bounds"
                + " how much of the machine rebuilds take from foreground I/O");
    public static final ConfigKey<Long> REBUILD_RATE_UNDER_LOAD =
        ConfigKey.size(
            "tessera.meta.rebuild-rate-under-load",
            16L << 20,
            "bytes per second rebuilds and drains write while clients"
                + " move more than 1 MiB/s on the data servers; tessera.meta.rebuild-rate applies when they are quiet");

    /**
     * Writers of locked stripes wait, so before each lock writers may wait for, a rebuild pauses
     * until its locks fill no more than this share. A file nobody writes is copied without pausing,
     * its locks counting only when the data servers say writers waited on them. Writers spread over
     * a few busy files soon all wait on whichever is locked: the share is about what they lose.
     */
    public static final ConfigKey<Integer> REBUILD_LOCK_SHARE_UNDER_LOAD =
        ConfigKey.percent(
            "tessera.meta.rebuild-lock-share-under-load",
            5,
            "percent of the time rebuilds and drains may hold stripe locks"
                + " writers wait on while clients are busy (100: no pause)");

    public static final ConfigKey<Duration> REBUILD_LOCK_LEASE =
        ConfigKey.duration(
            "tessera.meta.rebuild-lock-lease",
            Duration.ofSeconds(20),
            "lease of the stripe locks a rebuild holds: a file copied under its file-wide lock"
                + " must be copied within it");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Recovery",
            List.of(
                REPLACE_AFTER,
                REBUILD_RATE,
                REBUILD_RATE_UNDER_LOAD,
                REBUILD_LOCK_SHARE_UNDER_LOAD,
                REBUILD_LOCK_LEASE));
  }

  /** Region locks and sharing intents, kept by the leader. */
  public static final class Regions {
    private Regions() {}

    public static final ConfigKey<Duration> REGION_LEASE =
        ConfigKey.duration(
            "tessera.meta.region-lease",
            Duration.ofSeconds(10),
            "how long a client's region locks and sharing intents outlive its last word to the"
                + " leader (a client that dies holding them frees them after this); a new leader"
                + " takes only reclaims for this long");

    public static final ConfigSection SECTION =
        new ConfigSection("Region locks", List.of(REGION_LEASE));
  }

  /** Users, access tokens, the audit log. */
  public static final class Security {
    private Security() {}

    public static final ConfigKey<Duration> ACCESS_TOKEN_LIFETIME =
        ConfigKey.duration(
            "tessera.meta.access-token-lifetime",
            Duration.ofMinutes(10),
            "how long an access token lets a client read or write a file's shards (clients renew"
                + " them as they go; a permission taken away holds until its tokens run out)");
    public static final ConfigKey<Duration> ACCESS_KEY_ROLL =
        ConfigKey.duration(
            "tessera.meta.access-key-roll",
            Duration.ofDays(1),
            "how often the leader makes a new key to sign access tokens with (longer than the"
                + " token lifetime: the key before stays valid for one more turn)");
    public static final ConfigKey<Integer> SUPERUSER_GROUP =
        ConfigKey.integer(
            "tessera.meta.superuser-group",
            -1,
            -1,
            "gid whose members are admins and superusers, as if their credentials said --admin"
                + " (-1: none)");
    public static final ConfigKey<Duration> AUDIT_KEEP =
        ConfigKey.duration(
            "tessera.meta.audit-keep",
            Duration.ofDays(90),
            "audit entries older than this are dropped (the count of dropped ones is kept)");
    public static final ConfigKey<Integer> AUDIT_ENTRIES =
        ConfigKey.integer(
            "tessera.meta.audit-entries",
            100_000,
            100,
            "audit entries kept at most; older ones are dropped (the count of dropped ones is"
                + " kept)");

    public static final ConfigSection SECTION =
        new ConfigSection(
            "Security",
            List.of(
                ACCESS_TOKEN_LIFETIME,
                ACCESS_KEY_ROLL,
                SUPERUSER_GROUP,
                AUDIT_KEEP,
                AUDIT_ENTRIES));

    /** Token lifetime and key turn, checked together: tokens must not outlive two keys. */
    public static Duration tokenLifetime(Config c) {
      Duration life = c.get(ACCESS_TOKEN_LIFETIME);
      Duration roll = c.get(ACCESS_KEY_ROLL);
      if (life.isZero() || life.compareTo(roll) >= 0) {
        throw new IllegalArgumentException(
            ACCESS_TOKEN_LIFETIME.key()
                + " ("
                + Durations.format(life)
                + ") must be above zero and below "
                + ACCESS_KEY_ROLL.key()
                + " ("
                + Durations.format(roll)
                + ")");
      }
      return life;
    }
  }

  public static final List<ConfigSection> SECTIONS =
      List.of(
          DataServers.SECTION,
          Placement.SECTION,
          Raft.SECTION,
          Snapshots.SECTION,
          Recovery.SECTION,
          Regions.SECTION,
          Security.SECTION);

  public static final List<ConfigKey<?>> ALL = ConfigSection.keysOf(SECTIONS);
}
