package io.tessera.meta.server;

import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.PartialExpiredProto;
import io.tessera.meta.proto.ReclaimDoneProto;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.state.NamespaceStore;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On the leader, removes puts' partial copies whose writers stopped renewing them, and deletes the
 * shards of removed files from their data servers in the background, then logs that the files are
 * reclaimed. The list of files to reclaim is replicated, so a new leader carries on; a file with a
 * server that is down waits for it.
 *
 * <p>Each round takes up to {@value #PER_ROUND} files, asks every server to drop all of its files
 * among them in requests of {@value #PER_REQUEST}, and logs the files every server dropped in one
 * entry: removing a directory of a hundred thousand small files costs a few hundred requests per
 * server, not a hundred thousand. Rounds are paced to {@code tessera.meta.reclaim-per-second}.
 */
final class FileReclaimer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FileReclaimer.class);
  private static final int PER_ROUND = 1024;

  /** How often the timer checks whether the pace lets the next round start. */
  private static final long TICK_MS = 100;

  /** Files named in one delete request (a data server takes at most 1024). */
  private static final int PER_REQUEST = 256;

  private final RaftSubmitter raft;
  private final TxnBatcher batcher;
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final RpcClientPool dataServers;
  private final int perSecond;
  private final AtomicBoolean roundRunning = new AtomicBoolean();

  /** When the next round may start (System.nanoTime), by the pace. */
  private volatile long nextRoundNanos;

  private final ScheduledExecutorService timer = DaemonTimer.named("reclaimer");

  FileReclaimer(
      RaftSubmitter raft,
      TxnBatcher batcher,
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      RpcClientPool dataServers,
      int perSecond) {
    this.raft = raft;
    this.perSecond = perSecond;
    this.batcher = batcher;
    this.store = store;
    this.registry = registry;
    this.dataServers = dataServers;
  }

  void start() {
    timer.scheduleWithFixedDelay(this::round, 1000, TICK_MS, TimeUnit.MILLISECONDS);
  }

  private void round() {
    long now = System.nanoTime();
    if (!raft.isLeader() || now < nextRoundNanos || !roundRunning.compareAndSet(false, true)) {
      return;
    }
    try {
      expirePartials();
      Map<Long, LayoutProto> pending = store.get().pendingReclaims(Math.min(PER_ROUND, perSecond));
      // a round of n files is followed by the next n / rate seconds after it started; an idle
      // reclaimer looks again a second later
      nextRoundNanos =
          now + (pending.isEmpty() ? 1_000_000_000L : pending.size() * 1_000_000_000L / perSecond);
      reclaim(pending)
          .whenComplete(
              (v, err) -> {
                roundRunning.set(false);
                if (err != null) {
                  LOG.warn("Reclaim round failed (retried next round): {}", err.getMessage());
                }
              });
    } catch (RuntimeException e) {
      roundRunning.set(false);
      LOG.warn("Reclaim round failed: {}", e.getMessage());
    }
  }

  /**
   * Logs the removal of every put's partial copy whose lease ran out: its writer died (the state
   * machine checks the lease again as it applies the removal, so a renewal meanwhile keeps it).
   */
  private void expirePartials() {
    long now = System.currentTimeMillis();
    NamespaceStore ns = store.get();
    for (long fileId : ns.partialFiles(PER_ROUND)) {
      InodeProto in = ns.inode(fileId);
      if (in != null && in.getPartialUntilMs() != 0 && in.getPartialUntilMs() <= now) {
        LOG.info(
            "Removing a partial copy (file {}) whose writer stopped renewing it {} s ago",
            fileId,
            (now - in.getPartialUntilMs()) / 1000);
        batcher.submit(
            MetaTxnProto.newBuilder()
                .setTimeMs(now)
                .setPartialExpired(PartialExpiredProto.newBuilder().setFileId(fileId))
                .build());
      }
    }
  }

  private CompletableFuture<Void> reclaim(Map<Long, LayoutProto> pending) {
    Map<String, List<Long>> filesByServer = new LinkedHashMap<>();
    Set<Long> reclaimable = new HashSet<>();
    for (Map.Entry<Long, LayoutProto> e : pending.entrySet()) {
      Set<String> servers = Set.copyOf(e.getValue().getServersList());
      if (servers.stream().allMatch(s -> registry.address(s) != null && registry.isUp(s))) {
        reclaimable.add(e.getKey());
        servers.forEach(
            s -> filesByServer.computeIfAbsent(s, k -> new ArrayList<>()).add(e.getKey()));
      }
    }
    List<CompletableFuture<Void>> deletes = new ArrayList<>();
    for (Map.Entry<String, List<Long>> e : filesByServer.entrySet()) {
      List<Long> files = e.getValue();
      for (int from = 0; from < files.size(); from += PER_REQUEST) {
        List<Long> part = files.subList(from, Math.min(files.size(), from + PER_REQUEST));
        deletes.add(
            delete(e.getKey(), part)
                .thenAccept(
                    done -> {
                      if (!done) {
                        synchronized (reclaimable) {
                          part.forEach(reclaimable::remove);
                        }
                      }
                    }));
      }
    }
    return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new))
        .thenCompose(
            v -> {
              if (reclaimable.isEmpty()) {
                return CompletableFuture.completedFuture(null);
              }
              List<Long> done = new ArrayList<>(reclaimable);
              ReclaimDoneProto.Builder record =
                  ReclaimDoneProto.newBuilder()
                      .setFileId(done.get(0))
                      .addAllMoreFileIds(done.subList(1, done.size()));
              return batcher
                  .submit(
                      MetaTxnProto.newBuilder()
                          .setTimeMs(System.currentTimeMillis())
                          .setReclaimDone(record)
                          .build())
                  .thenApply(r -> null);
            });
  }

  /** Whether {@code server} dropped the shards of every one of {@code files}. */
  private CompletableFuture<Boolean> delete(String server, List<Long> files) {
    String address = registry.address(server);
    if (address == null) {
      return CompletableFuture.completedFuture(false);
    }
    byte[] req =
        DataRequestProto.newBuilder()
            .setDeleteFile(
                DeleteFileRequestProto.newBuilder()
                    .setFileId(files.get(0))
                    .addAllMoreFileIds(files.subList(1, files.size())))
            .build()
            .toByteArray();
    return dataServers
        .call(address, Service.DATA, req, null)
        .handle(
            (frame, err) -> {
              if (err != null) {
                return false;
              }
              try {
                return DataResponseProto.parseFrom(frame.header()).getStatus() == StatusProto.OK;
              } catch (Exception ex) {
                return false;
              } finally {
                frame.release();
              }
            });
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
