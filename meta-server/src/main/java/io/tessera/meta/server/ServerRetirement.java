package io.tessera.meta.server;

import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.ServerStateChangeProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.Replies;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * An operator retires a data server: decommission (it drains, recovery moves its shards off),
 * recommission (taken back), remove (forgotten once retired and stopped). Each is checked against
 * the committed state, then logged as a server-state change.
 */
final class ServerRetirement {
  private final RaftSubmitter raft;
  private final TxnBatcher batcher;
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;

  ServerRetirement(
      RaftSubmitter raft,
      TxnBatcher batcher,
      Supplier<NamespaceStore> store,
      DataServerRegistry registry) {
    this.raft = raft;
    this.batcher = batcher;
    this.store = store;
    this.registry = registry;
  }

  /** meta.proto's {@code DecommissionRequestProto}: decommission, undo, or remove. */
  CompletableFuture<MetaResponseProto> serve(MetaRequestProto req) {
    String server = req.getDecommission().getServer();
    return req.getDecommission().getRemove()
        ? remove(server, req.getDecommission().getForce())
        : req.getDecommission().getUndo() ? recommission(server) : decommission(server);
  }

  /** Logs the server DRAINING by an operator's request; recovery then moves its shards. */
  private CompletableFuture<MetaResponseProto> decommission(String server) {
    NamespaceStore ns = store.get();
    MetaResponseProto unknown = unregistered(ns, server);
    if (unknown != null) {
      return CompletableFuture.completedFuture(unknown);
    }
    ServerStateRecordProto rec = ns.serverStates().get(server);
    if (rec != null && rec.getDecommissioned()) {
      return CompletableFuture.completedFuture(
          Replies.error(
              StatusProto.OK,
              server + " is already " + rec.getState().name().toLowerCase(Locale.ROOT)));
    }
    return logServerChange(
        ServerStateChangeProto.newBuilder()
            .setServer(server)
            .setState(DataServerStateProto.DRAINING)
            .setDecommissioned(true),
        "decommissioned",
        () ->
            server
                + " is draining: "
                + store.get().placedCount(server)
                + " files have units on it");
  }

  /**
   * Takes a decommission back: the server recovers (drops what moved off it), then takes files
   * again.
   */
  private CompletableFuture<MetaResponseProto> recommission(String server) {
    ServerStateRecordProto rec = store.get().serverStates().get(server);
    if (rec == null || !rec.getDecommissioned()) {
      return CompletableFuture.completedFuture(
          Replies.error(StatusProto.INVALID_ARGUMENT, server + " is not decommissioned"));
    }
    return logServerChange(
        ServerStateChangeProto.newBuilder()
            .setServer(server)
            .setState(DataServerStateProto.RECOVERING)
            .setRecommissioned(true),
        "recommissioned",
        () -> server + " is recommissioned: recovering, then up");
  }

  /**
   * Forgets a retired server that no longer runs. Moves copy the live versions of shards only, so
   * unless forced it is refused while snapshots taken before the server retired exist.
   */
  private CompletableFuture<MetaResponseProto> remove(String server, boolean force) {
    NamespaceStore ns = store.get();
    MetaResponseProto unknown = unregistered(ns, server);
    if (unknown != null) {
      return CompletableFuture.completedFuture(unknown);
    }
    ServerStateRecordProto rec = ns.serverStates().get(server);
    if (rec == null || rec.getState() != DataServerStateProto.RETIRED) {
      String state = rec == null ? "up" : rec.getState().name().toLowerCase(Locale.ROOT);
      return CompletableFuture.completedFuture(
          Replies.error(
              StatusProto.INVALID_ARGUMENT,
              server
                  + " is "
                  + state
                  + ": only a retired server can be removed (tessera server decommission "
                  + server
                  + " --wait, then stop it)"));
    }
    if (registry.isUp(server)) {
      return CompletableFuture.completedFuture(
          Replies.error(
              StatusProto.INVALID_ARGUMENT,
              server
                  + " still sends heartbeats: stop it first (a running server would register again)"));
    }
    List<String> older =
        ns.snapshots().stream()
            .filter(s -> s.getCreatedMs() <= rec.getSinceMs())
            .map(SnapshotProto::getName)
            .toList();
    if (!older.isEmpty() && !force) {
      return CompletableFuture.completedFuture(
          Replies.error(
              StatusProto.INVALID_ARGUMENT,
              server
                  + " may hold the"
                  + " only copies of shard versions kept for snapshots taken before it retired ("
                  + String.join(", ", older.subList(0, Math.min(5, older.size())))
                  + (older.size() > 5 ? ", ..." : "")
                  + "): moves copy live"
                  + " versions only. Delete those snapshots first, or remove it with --force (their reads then decode around"
                  + " it, and fail where more units are gone than the file has parity)"));
    }
    return logServerChange(
        ServerStateChangeProto.newBuilder().setServer(server).setRemoved(true),
        "removed",
        () -> server + " is removed: tessera cluster status no longer lists it");
  }

  /** The refusal for a server id the meta group does not know, or null. */
  private static MetaResponseProto unregistered(NamespaceStore ns, String server) {
    return ns.registeredServers().containsKey(server)
        ? null
        : Replies.error(
            StatusProto.NOT_FOUND,
            "no data server " + server + " is registered (tessera cluster status lists them)");
  }

  /**
   * Logs an operator's change of a data server's state; answers {@code done} (asked once the change
   * is applied) or why the state machine refused it ("ds-3 cannot be {@code verb} now: ...").
   */
  private CompletableFuture<MetaResponseProto> logServerChange(
      ServerStateChangeProto.Builder change, String verb, Supplier<String> done) {
    MetaTxnProto txn =
        MetaTxnProto.newBuilder()
            .setTimeMs(System.currentTimeMillis())
            .setServerState(change)
            .build();
    return batcher
        .submit(txn)
        .handle(
            (reply, err) ->
                err != null
                    ? LeaderStatus.reply(LeaderStatus.of(err, raft))
                    : reply.getClient().getStatus() == StatusProto.OK
                        ? Replies.error(StatusProto.OK, done.get())
                        : Replies.error(
                            StatusProto.INVALID_ARGUMENT,
                            change.getServer()
                                + " cannot be "
                                + verb
                                + " now: "
                                + reply.getClient().getMessage()));
  }
}
