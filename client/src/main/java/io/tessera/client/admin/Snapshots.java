package io.tessera.client.admin;

import io.tessera.client.Futures;
import io.tessera.client.VirtualFileSystem;
import io.tessera.client.internal.MetaClient;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.ScanVersionsRequestProto;
import io.tessera.common.proto.ScanVersionsResponseProto;
import io.tessera.common.proto.SnapshotCreateRequestProto;
import io.tessera.common.proto.SnapshotDeleteRequestProto;
import io.tessera.common.proto.SnapshotListRequestProto;
import io.tessera.common.proto.SnapshotProto;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;

/**
 * Snapshots of the whole file system ({@code fs.admin().snapshots()}): taken while the file system
 * is busy, readable at {@code /.snapshots/<name>/...} (read-only), compared, restored, deleted.
 */
public final class Snapshots {
  private final ClusterAdmin admin;
  private final MetaClient meta;
  private final VirtualFileSystem fs;

  Snapshots(ClusterAdmin admin, MetaClient meta, VirtualFileSystem fs) {
    this.admin = admin;
    this.meta = meta;
    this.fs = fs;
  }

  /**
   * Takes a snapshot; waits through busy data servers (the meta leader retries) until it is
   * committed.
   */
  public SnapshotInfo create(String name) throws IOException {
    return Futures.get(
        meta.call(
                MetaRequestProto.newBuilder()
                    .setSnapshotCreate(SnapshotCreateRequestProto.newBuilder().setName(name)))
            // a snapshot just taken shares every version with the live files: deleting it frees
            // nothing yet
            .thenApply(r -> info(r.getSnapshot(), 0)));
  }

  /** Every snapshot, oldest first, without the bytes each holds (cheap). */
  public List<SnapshotInfo> list() throws IOException {
    return Futures.get(listAsync());
  }

  /** {@link #list} without waiting. */
  public CompletableFuture<List<SnapshotInfo>> listAsync() {
    return meta.call(
            MetaRequestProto.newBuilder()
                .setSnapshotList(SnapshotListRequestProto.getDefaultInstance()))
        .thenApply(
            r -> r.getSnapshots().getSnapshotsList().stream().map(s -> info(s, -1)).toList());
  }

  /** Every snapshot with the bytes only it holds (asks every data server to scan its versions). */
  public List<SnapshotInfo> listWithUsage() throws IOException {
    return Futures.get(
        listAsync()
            .thenCompose(
                list ->
                    admin
                        .scanVersions(ScanVersionsRequestProto.newBuilder().setUsage(true))
                        .thenApply(
                            scans -> {
                              Map<Long, Long> bytes = new HashMap<>();
                              boolean complete = scans.stream().allMatch(Objects::nonNull);
                              for (ScanVersionsResponseProto scan : scans) {
                                for (int i = 0; scan != null && i < scan.getEpochsCount(); i++) {
                                  bytes.merge(
                                      scan.getEpochs(i), scan.getExclusiveBytes(i), Long::sum);
                                }
                              }
                              return list.stream()
                                  .map(
                                      s ->
                                          new SnapshotInfo(
                                              s.name(),
                                              s.epoch(),
                                              s.created(),
                                              s.tookMillis(),
                                              s.attempts(),
                                              s.missingServers(),
                                              complete ? bytes.getOrDefault(s.epoch(), 0L) : -1))
                                  .toList();
                            })));
  }

  /** Deletes a snapshot; the shard versions only it held are freed in the background. */
  public void delete(String name) throws IOException {
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setSnapshotDelete(SnapshotDeleteRequestProto.newBuilder().setName(name))));
  }

  /**
   * What changed from snapshot {@code from} to snapshot {@code to}: created, deleted, modified,
   * renamed.
   */
  public List<SnapshotChange> diff(String from, String to) throws IOException {
    return new SnapshotDiffer(this, fs).diff(from, to);
  }

  /** What changed from snapshot {@code from} to the live file system now. */
  public List<SnapshotChange> diffToLive(String from) throws IOException {
    return new SnapshotDiffer(this, fs).diff(from, null);
  }

  /**
   * Makes {@code path} (a file or a whole tree) what it was in the snapshot, as a new version:
   * files that differ are copied back, entries the snapshot did not have are removed. Files
   * unchanged since the snapshot are left alone.
   *
   * @param progress called with the bytes copied so far (may be null)
   */
  public SnapshotRestorer.Result restore(String name, String path, LongConsumer progress)
      throws IOException {
    return new SnapshotRestorer(fs, this).restore(name, path, progress, false);
  }

  /**
   * What {@link #restore} would do, changing nothing: the files it would copy back and the entries
   * it would remove (those created since the snapshot).
   */
  public SnapshotRestorer.Result planRestore(String name, String path) throws IOException {
    return new SnapshotRestorer(fs, this).restore(name, path, null, true);
  }

  /** Rolls the whole file system back to the snapshot (every path but /.snapshots). */
  public SnapshotRestorer.Result restoreAll(String name, LongConsumer progress) throws IOException {
    return restore(name, "/", progress);
  }

  /**
   * Ids of files with shard versions stamped in {@code (after, upTo]}, over every data server; null
   * when a data server could not be asked (the answer would be incomplete).
   */
  CompletableFuture<Set<Long>> filesWritten(long after, long upTo) {
    return admin
        .scanVersions(
            ScanVersionsRequestProto.newBuilder()
                .setWritten(true)
                .setWrittenAfter(after)
                .setWrittenUpTo(upTo))
        .thenApply(
            scans -> {
              Set<Long> out = new HashSet<>();
              for (ScanVersionsResponseProto scan : scans) {
                if (scan == null) {
                  return null;
                }
                out.addAll(scan.getWrittenFilesList());
              }
              return out;
            });
  }

  private static SnapshotInfo info(SnapshotProto s, long exclusiveBytes) {
    return new SnapshotInfo(
        s.getName(),
        s.getEpoch(),
        Instant.ofEpochMilli(s.getCreatedMs()),
        s.getTookMs(),
        s.getAttempts(),
        List.copyOf(s.getMissingServersList()),
        exclusiveBytes);
  }
}
