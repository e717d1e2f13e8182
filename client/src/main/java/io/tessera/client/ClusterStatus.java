package io.tessera.client;

import java.util.List;

/**
 * The cluster as the meta group sees it.
 *
 * @param replicas the meta replicas, one of which leads
 * @param dataServers every registered data server
 * @param epoch the global epoch new writes are stamped with
 */
public record ClusterStatus(List<Replica> replicas, List<DataServer> dataServers, long epoch) {

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
   * @param up whether it heartbeats
   * @param capacityBytes size of its disk
   * @param freeBytes free space on its disk
   * @param usedBytes bytes of shards it stores
   * @param lastHeartbeatMillisAgo how long since the meta group heard from it
   */
  public record DataServer(String id, String address, boolean up, long capacityBytes, long freeBytes, long usedBytes,
      long lastHeartbeatMillisAgo) {}
}
