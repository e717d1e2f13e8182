package io.tessera.meta.server;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.proto.LayoutProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.meta.namespace.NamespaceStore;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.ReclaimDoneProto;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.registry.DataServerRegistry;
import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On the leader, deletes the shards of removed files from their data servers in the
 * background, then logs that the file is reclaimed. The list of files to reclaim is
 * replicated, so a new leader carries on; a server that is down is asked again later.
 */
final class FileReclaimer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(FileReclaimer.class);
  private static final int PER_ROUND = 64;

  private final RaftSubmitter raft;
  private final TxnBatcher batcher;
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final RpcClientPool dataServers;
  private final Set<Long> inProgress = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "reclaimer");
    t.setDaemon(true);
    return t;
  });

  FileReclaimer(RaftSubmitter raft, TxnBatcher batcher, Supplier<NamespaceStore> store, DataServerRegistry registry,
      RpcClientPool dataServers) {
    this.raft = raft;
    this.batcher = batcher;
    this.store = store;
    this.registry = registry;
    this.dataServers = dataServers;
  }

  void start() {
    timer.scheduleWithFixedDelay(this::round, 1, 1, TimeUnit.SECONDS);
  }

  private void round() {
    try {
      if (!raft.isLeader()) {
        return;
      }
      for (Map.Entry<Long, LayoutProto> e : store.get().pendingReclaims(PER_ROUND).entrySet()) {
        if (inProgress.add(e.getKey())) {
          reclaim(e.getKey(), e.getValue()).whenComplete((ok, err) -> inProgress.remove(e.getKey()));
        }
      }
    } catch (RuntimeException e) {
      LOG.warn("Reclaim round failed: {}", e.getMessage());
    }
  }

  private CompletableFuture<Void> reclaim(long fileId, LayoutProto layout) {
    List<CompletableFuture<Boolean>> deletes = new ArrayList<>();
    byte[] req = DataRequestProto.newBuilder().setDeleteFile(DeleteFileRequestProto.newBuilder().setFileId(fileId))
        .build().toByteArray();
    for (String server : Set.copyOf(layout.getServersList())) {
      String address = registry.address(server);
      if (address == null || !registry.isUp(server)) {
        return CompletableFuture.completedFuture(null);
      }
      deletes.add(dataServers.call(address, Service.DATA, req, null).handle((frame, err) -> {
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
      }));
    }
    return CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)).thenCompose(v -> {
      if (deletes.stream().allMatch(CompletableFuture::join)) {
        return batcher.submit(MetaTxnProto.newBuilder().setTimeMs(System.currentTimeMillis())
            .setReclaimDone(ReclaimDoneProto.newBuilder().setFileId(fileId)).build()).thenApply(r -> null);
      }
      return CompletableFuture.completedFuture(null);
    });
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
