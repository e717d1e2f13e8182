package io.tessera.meta.recovery;

import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.RecoveryStatusProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.LeftoverDroppedProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.state.NamespaceStore;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retiring a data server: the units of every file placed on a DRAINING server move to other servers
 * (one file at a time, at the rebuild rate), and the server is logged RETIRED once no file names
 * it. The shards a move leaves on the server it left are dropped once that server is reachable.
 */
final class ServerDrain {
  private static final Logger LOG = LoggerFactory.getLogger(ServerDrain.class);

  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final ShardRebuilder rebuilder;
  private final RecoveryLog log;
  private final BooleanSupplier isLeader;
  private final Function<String, DataServerStateProto> state;
  private final Predicate<String> serving;
  private final long minFreeBytes;
  private final AtomicLong movedBytes;
  private final Map<String, RebuildProgress> drains = new ConcurrentHashMap<>();

  /**
   * @param state a server's state in the replicated namespace
   * @param serving whether a server answers and is not DOWN
   * @param minFreeBytes free space a server needs to take units
   * @param movedBytes counts the unit bytes moved
   */
  ServerDrain(
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      ShardRebuilder rebuilder,
      RecoveryLog log,
      BooleanSupplier isLeader,
      Function<String, DataServerStateProto> state,
      Predicate<String> serving,
      long minFreeBytes,
      AtomicLong movedBytes) {
    this.store = store;
    this.registry = registry;
    this.rebuilder = rebuilder;
    this.log = log;
    this.isLeader = isLeader;
    this.state = state;
    this.serving = serving;
    this.minFreeBytes = minFreeBytes;
    this.movedBytes = movedBytes;
  }

  /**
   * Moves the units of up to {@code files} files placed on the DRAINING server; logs it RETIRED
   * once no file names it.
   */
  void drain(String server, int files) throws InterruptedException {
    RebuildProgress p = drains.computeIfAbsent(server, s -> new RebuildProgress());
    List<Long> placed = store.get().placedFiles(server, files);
    for (long fileId : placed) {
      if (!isLeader.getAsBoolean() || state.apply(server) != DataServerStateProto.DRAINING) {
        return;
      }
      try {
        p.starting(System.nanoTime());
        InodeProto in = store.get().inode(fileId);
        String to = in == null ? null : destination(in);
        long bytes = to == null ? 0 : rebuilder.move(fileId, server, to);
        if (to != null) {
          p.done(bytes);
          movedBytes.addAndGet(bytes);
          dropLeftover(fileId, server);
        }
      } catch (RecoveryException e) {
        if (p.failed(e.getMessage())) {
          LOG.warn("Moving file {} off {} failed, will retry: {}", fileId, server, e.getMessage());
        }
      }
    }
    if (placed.isEmpty()) {
      log.serverState(server, DataServerStateProto.RETIRED);
    }
  }

  /**
   * Where a file's units leave a draining server for: a live UP server outside the file's layout
   * with room, the one with the most free space (the placement rule of new files: distinct servers
   * per file, emptiest first).
   */
  private String destination(InodeProto in) {
    Set<String> taken = new HashSet<>(in.getLayout().getServersList());
    HeartbeatRequestProto best = null;
    for (HeartbeatRequestProto hb : registry.live()) {
      String id = hb.getServerId();
      if (taken.contains(id)
          || state.apply(id) != DataServerStateProto.UP
          || hb.getFreeBytes() < minFreeBytes
          || store.get().holdsLeftover(id, in.getId())) {
        continue;
      }
      if (best == null || hb.getFreeBytes() > best.getFreeBytes()) {
        best = hb;
      }
    }
    if (best == null) {
      throw new RecoveryException(
          StatusProto.NO_SPACE,
          "no live data server outside the "
              + in.getLayout().getServersCount()
              + " of file "
              + in.getId()
              + " has room for its units (add a data server)");
    }
    return best.getServerId();
  }

  /**
   * Deletes the shards of up to {@code files} moved files left on the server (reachable now), once
   * every fence is in place.
   */
  void dropLeftovers(String server, int files) {
    for (long fileId : store.get().leftoverFiles(server, files)) {
      try {
        dropLeftover(fileId, server);
      } catch (RecoveryException e) {
        LOG.warn(
            "Cannot drop the shards of moved file {} from {} yet: {}",
            fileId,
            server,
            e.getMessage());
        return;
      }
    }
  }

  private void dropLeftover(long fileId, String server) {
    if (!serving.test(server)) {
      return; // when it is reachable again
    }
    rebuilder.dropLeftover(fileId, server);
    log.submit(
        MetaTxnProto.newBuilder()
            .setLeftoverDropped(
                LeftoverDroppedProto.newBuilder().setFileId(fileId).setServer(server)));
  }

  /**
   * Adds every draining server's progress (and those drained while this replica led) to {@code b}.
   */
  void describe(NamespaceStore ns, RecoveryStatusProto.Builder b) {
    for (Map.Entry<String, ServerStateRecordProto> e : ns.serverStates().entrySet()) {
      if (e.getValue().getState() != DataServerStateProto.DRAINING
          && !drains.containsKey(e.getKey())) {
        continue;
      }
      List<Long> files = ns.placedFiles(e.getKey(), 100_000);
      long left = RebuildProgress.unitBytesOf(ns, files);
      RebuildProgress p = drains.getOrDefault(e.getKey(), new RebuildProgress());
      b.addRebuilds(p.describe(e.getKey(), files.size(), left).toBuilder().setDraining(true));
    }
  }
}
