package io.tessera.meta.server;

import io.tessera.common.proto.ClusterStatusResponseProto;
import io.tessera.common.proto.DataServerProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.MetaReplicaProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.recovery.RecoveryCoordinator;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.state.NamespaceStore;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.ratis.protocol.RaftPeer;

/**
 * What {@code tessera cluster status} shows: meta replicas and leader, data servers with their
 * states and work left, recovery, pending reclaims. Any replica answers when no leader does.
 */
final class ClusterStatusReport {
  /** Pending reclaims the report counts at most (a scan of the reclaim records). */
  static final long RECLAIMS_COUNTED = 1_000_000;

  private final RaftSubmitter raft;
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final RecoveryCoordinator recovery;

  ClusterStatusReport(
      RaftSubmitter raft,
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      RecoveryCoordinator recovery) {
    this.raft = raft;
    this.store = store;
    this.registry = registry;
    this.recovery = recovery;
  }

  /**
   * {@code firstHand}: this replica leads, so it hears every heartbeat. Without a leader (the group
   * lost its majority, or is electing), a replica has heard only the heartbeats that changed
   * something: it reports each data server as the last leader recorded it, and how long since it
   * was heard as unknown (-1), rather than every server as silent and DOWN.
   */
  MetaResponseProto report(boolean firstHand) {
    ClusterStatusResponseProto.Builder b = ClusterStatusResponseProto.newBuilder();
    String leader = raft.leaderId();
    Map<String, Long> contact = raft.followerContactMillisAgo();
    for (RaftPeer p : raft.peers()) {
      String id = p.getId().toString();
      b.addReplicas(
          MetaReplicaProto.newBuilder()
              .setId(id)
              .setAddress(p.getClientAddress())
              .setLeader(id.equals(leader))
              .setLastContactMsAgo(id.equals(leader) ? 0 : contact.getOrDefault(id, -1L)));
    }
    NamespaceStore ns = store.get();
    Map<String, ServerStateRecordProto> states = ns.serverStates();
    Map<String, Long> stale = ns.staleCounts();
    Map<String, Long> leftovers = ns.leftoverCounts();
    for (DataServerProto d : registry.describe()) {
      ServerStateRecordProto rec = states.get(d.getId());
      DataServerProto.Builder db =
          d.toBuilder()
              .setFilesToRebuild(stale.getOrDefault(d.getId(), 0L))
              .setLeftoverFiles(leftovers.getOrDefault(d.getId(), 0L));
      if (rec != null
          && (rec.getState() == DataServerStateProto.DRAINING
              || rec.getState() == DataServerStateProto.RETIRED)) {
        // counted only where it is work left: a scan of one server's range of the placement index
        db.setFilesPlaced(ns.placedCount(d.getId()));
      }
      if (!firstHand) {
        db.setLastHeartbeatMsAgo(-1)
            .setState(rec != null ? rec.getState() : DataServerStateProto.UP);
      }
      if (rec != null && rec.getState() != DataServerStateProto.UP) {
        db.setDownSinceMs(rec.getDownSinceMs() != 0 ? rec.getDownSinceMs() : rec.getSinceMs())
            .setDecommissioned(rec.getDecommissioned());
        if (d.getState() != DataServerStateProto.DOWN
            || rec.getState() == DataServerStateProto.DRAINING
            || rec.getState() == DataServerStateProto.RETIRED) {
          db.setState(
              rec.getState()); // heard from, but DOWN not yet moved on, RECOVERING, DRAINING or
          // RETIRED
        }
      }
      if (firstHand
          && rec != null
          && db.getState() == DataServerStateProto.UP
          && !registry.reportsServing(d.getId())) {
        // back from DOWN and rebuilt, but it has not yet said it heard so: it still reads around
        // itself
        db.setState(DataServerStateProto.RECOVERING);
      }
      b.addDataServers(db);
    }
    b.setEpoch(ns.epoch());
    b.setRecovery(recovery.status());
    b.setFilesToReclaim(ns.pendingReclaimCount(RECLAIMS_COUNTED));
    return MetaResponseProto.newBuilder().setStatus(StatusProto.OK).setCluster(b).build();
  }
}
