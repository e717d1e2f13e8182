package io.tessera.meta.server;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.tessera.common.config.Config;
import io.tessera.common.metrics.RequestMetrics;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.meta.ratis.MetaStateMachine;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.recovery.RecoveryCoordinator;
import io.tessera.meta.state.NamespaceStore;

/**
 * What a meta replica shows at /metrics besides the JVM: requests, Raft commits and leadership,
 * snapshots and rebuilds.
 */
final class MetaMetrics {
  final ServerMetrics metrics;
  final RequestMetrics<MetaRequestProto.OpCase> requests;
  private final DistributionDataPoint raftCommit;
  private final DistributionDataPoint snapshots;

  MetaMetrics(Config config) {
    metrics = new ServerMetrics("meta", config);
    requests = metrics.requests(MetaRequestProto.OpCase.class, "Meta requests");
    raftCommit =
        metrics
            .seconds(
                "raft_commit_duration",
                "Time from submitting a batch of namespace changes to Raft to its commit and apply")
            .labelValues();
    snapshots =
        metrics
            .seconds(
                "snapshot_duration",
                "Time taken to create a file-system snapshot (successful ones)")
            .labelValues();
  }

  /** A batch of changes took this long from submission to applied. */
  void committed(double seconds) {
    if (metrics.counting()) {
      raftCommit.observe(seconds);
    }
  }

  /** A snapshot was taken in this long. */
  void snapshotTaken(double seconds) {
    if (metrics.counting()) {
      snapshots.observe(seconds);
    }
  }

  /** The gauges and counters read at each scrape. */
  void watch(MetaStateMachine sm, RaftSubmitter raft, RecoveryCoordinator recovery) {
    metrics.counterOf("leader_changes", "Leader changes this replica has seen", sm::leaderChanges);
    metrics.gauge(
        "is_leader", "1 while this replica leads the meta group", () -> raft.isLeader() ? 1 : 0);
    metrics.counterOf(
        "rebuilt_bytes",
        "Unit bytes recovery rebuilt or moved while this replica led",
        recovery::rebuiltBytes);
    metrics.gauge(
        "rebuild_files_left",
        "Files with stale units left to rebuild (0 on followers)",
        () -> {
          NamespaceStore ns = sm.store();
          return ns == null || !raft.isLeader()
              ? 0
              : ns.staleCounts().values().stream().mapToLong(Long::longValue).sum();
        });
  }
}
