package io.tessera.data.server;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.tessera.common.config.Config;
import io.tessera.common.metrics.RequestMetrics;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.store.ShardStore;
import java.io.File;

/** What a data server shows at /metrics besides the JVM: requests, bytes, store, stripe locks. */
final class DataMetrics {
  final ServerMetrics metrics;
  final RequestMetrics<DataRequestProto.OpCase> requests;
  private final CounterDataPoint readBytes;
  private final CounterDataPoint writtenBytes;
  private final Counter refusals;

  DataMetrics(ShardStore store, StripeLockTable locks, File dataDir, Config config) {
    metrics = new ServerMetrics("data", config);
    requests = metrics.requests(DataRequestProto.OpCase.class, "Data requests");
    readBytes =
        metrics
            .counter("read_bytes", "Shard bytes clients and recovery asked to read")
            .labelValues();
    writtenBytes =
        metrics
            .counter("written_bytes", "Shard bytes clients and recovery sent to write")
            .labelValues();
    refusals =
        metrics.counter(
            "refusals",
            "Requests refused before running: stale_layout, no_space or snapshot_gate",
            "reason");
    metrics.gauge("shard_store_bytes", "Bytes of shards this server stores", store::usedBytes);
    metrics.gauge(
        "unsynced_writes",
        "Shard writes acknowledged since the last fsync: kept through a process crash, lost with"
            + " the machine's power",
        store::unsyncedWrites);
    metrics.gauge(
        "disk_free_bytes", "Free space on the data directory's disk", dataDir::getUsableSpace);
    metrics.gauge(
        "disk_capacity_bytes", "Size of the data directory's disk", dataDir::getTotalSpace);
    metrics.counterOf(
        "stripe_locks_granted", "Stripe locks granted (phase 1 of writes)", locks::grants);
    metrics.counterOf(
        "stripe_locks_refused",
        "Stripe lock requests refused because another writer held an overlapping lock",
        locks::refusals);
    metrics.gauge("stripe_locks_held", "Stripe locks held now", locks::size);
  }

  /** A request that asks to read {@code read} bytes and carries {@code written} to write. */
  void transfer(long read, long written) {
    if (metrics.counting()) {
      readBytes.inc(read);
      writtenBytes.inc(written);
    }
  }

  void refused(String reason) {
    if (metrics.counting()) {
      refusals.labelValues(reason).inc();
    }
  }
}
