package io.tessera.client.admin;

import java.util.List;

/**
 * The cluster as the meta group sees it.
 *
 * @param replicas the meta replicas, one of which leads
 * @param dataServers every registered data server
 * @param epoch the global epoch new writes are stamped with
 * @param recovery what recovery is rebuilding or moving
 * @param filesToReclaim removed files whose shards are not yet deleted from every data server of
 *     theirs (one that is away keeps them waiting), counted up to 1,000,000
 */
public record ClusterStatus(
    List<Replica> replicas,
    List<DataServer> dataServers,
    long epoch,
    Recovery recovery,
    long filesToReclaim) {

  /**
   * Disk space of the data servers that are not retired, each filesystem counted once (the data
   * servers of a local cluster share one disk; a server whose filesystem is unknown counts alone).
   */
  public Space space() {
    long capacity = 0;
    long free = 0;
    java.util.Set<String> seen = new java.util.HashSet<>();
    int filesystems = 0;
    for (DataServer d : dataServers) {
      if (d.state().equals("retired") || (!d.filesystem().isEmpty() && !seen.add(d.filesystem()))) {
        continue;
      }
      filesystems++;
      capacity += d.capacityBytes();
      free += d.freeBytes();
    }
    return new Space(capacity, free, filesystems);
  }

  /** Disk space: what the filesystems hold in all, what is free on them, and how many there are. */
  public record Space(long capacityBytes, long freeBytes, int filesystems) {}

  /** The id of the replica that leads, or "" while none does. */
  public String leaderId() {
    return replicas.stream().filter(Replica::leader).map(Replica::id).findFirst().orElse("");
  }

  /**
   * A meta replica.
   *
   * @param id its Raft peer id
   * @param address where clients reach it
   * @param leader whether it leads the group
   * @param lastContactMillisAgo how long ago the leader last heard from it (-1: unknown)
   */
  public record Replica(String id, String address, boolean leader, long lastContactMillisAgo) {}

  /**
   * A data server.
   *
   * @param id its id
   * @param address where clients reach it
   * @param state "up", "down" (silent past the timeout), "recovering" (back, rebuilding what it
   *     missed; clients do not read from it yet), "draining" (decommissioned or down past the
   *     replacement timeout: its units move to other servers) or "retired" (drained: no file uses
   *     it)
   * @param capacityBytes size of its disk
   * @param freeBytes free space on its disk
   * @param usedBytes bytes of shards it stores
   * @param lastHeartbeatMillisAgo how long since the meta leader heard from it; -1 when no leader
   *     answered (the state is then as the last leader recorded it)
   * @param filesToRebuild files whose shards on it are stale
   * @param downSinceMillis when it was found down (0: not down or recovering)
   * @param filesPlaced draining or retired: files with a unit on it, left to move (0 for other
   *     states)
   * @param decommissioned draining or retired because an operator asked
   * @param leftoverFiles files moved off it while it was unreachable, whose old shards it still
   *     holds
   * @param proxyAddress the QoS proxy clients send to for it (empty: none)
   * @param clientBytesPerSecond what clients read and wrote there, per its last heartbeat
   * @param clientRequestsPerSecond requests clients sent there, per its last heartbeat
   * @param filesystem the filesystem its data directory is on ("" unknown): servers sharing one
   *     share its capacity
   */
  public record DataServer(
      String id,
      String address,
      String state,
      long capacityBytes,
      long freeBytes,
      long usedBytes,
      long lastHeartbeatMillisAgo,
      long filesToRebuild,
      long downSinceMillis,
      long filesPlaced,
      boolean decommissioned,
      long leftoverFiles,
      String proxyAddress,
      long clientBytesPerSecond,
      long clientRequestsPerSecond,
      String filesystem) {
    /** Whether clients use it. */
    public boolean up() {
      return "up".equals(state);
    }
  }

  /**
   * What the recovery coordinator on the meta leader is doing.
   *
   * @param rebuilds per server with stale shards (or rebuilt since the leader took over)
   * @param rateLimitBytesPerSecond the configured bound of rebuild traffic (0: none)
   * @param filesWithoutParity files whose layout has no parity: not redundant by layout, whatever
   *     recovery does (counted up to a million)
   */
  public record Recovery(
      List<Rebuild> rebuilds, long rateLimitBytesPerSecond, long filesWithoutParity) {}

  /**
   * Rebuild progress of one server.
   *
   * @param server the server whose shards are rebuilt
   * @param filesLeft files still stale on it
   * @param bytesLeft estimated shard bytes still to write
   * @param filesDone files rebuilt since this leader took over
   * @param bytesDone bytes written since
   * @param bytesPerSecond over the last seconds
   * @param failures attempts that failed and are retried
   * @param lastError why the last failure failed ("" when none)
   * @param draining the server's units move to other servers (else: its stale shards are rebuilt on
   *     it)
   */
  public record Rebuild(
      String server,
      long filesLeft,
      long bytesLeft,
      long filesDone,
      long bytesDone,
      double bytesPerSecond,
      long failures,
      String lastError,
      boolean draining) {
    /** Seconds until done at the current rate; -1 when unknown. */
    public long etaSeconds() {
      return bytesPerSecond > 0
          ? (long) Math.ceil(bytesLeft / bytesPerSecond)
          : (filesLeft == 0 ? 0 : -1);
    }
  }
}
