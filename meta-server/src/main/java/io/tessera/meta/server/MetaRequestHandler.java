package io.tessera.meta.server;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.cluster.FollowerReads;
import io.tessera.common.proto.ClusterStatusResponseProto;
import io.tessera.common.proto.DataServerProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.MetaReplicaProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.meta.proto.MetaQueryProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.ServerStateChangeProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.recovery.RecoveryCoordinator;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.registry.DefaultLayout;
import io.tessera.meta.registry.PlacementPolicy;
import io.tessera.meta.snapshot.SnapshotCoordinator;
import io.tessera.meta.state.NamespaceChanges;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.Replies;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeer;

/**
 * Serves meta.proto on the leader: changes are completed (time, layout, placement) and
 * group-committed through the log; reads go through Ratis's read path; followers answer with the
 * leader's address.
 */
final class MetaRequestHandler implements RpcService {
  /** Pending reclaims `cluster status` counts at most (a scan of the reclaim records). */
  static final long RECLAIMS_COUNTED = 1_000_000;

  private final RaftSubmitter raft;
  private final TxnBatcher batcher;
  private final Supplier<NamespaceStore> store;
  private final DataServerRegistry registry;
  private final NewFilePlacement newFiles;
  private final SnapshotCoordinator snapshots;

  private final RecoveryCoordinator recovery;

  MetaRequestHandler(
      RaftSubmitter raft,
      TxnBatcher batcher,
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      PlacementPolicy placement,
      DefaultLayout defaultLayout,
      int defaultStripeUnit,
      SnapshotCoordinator snapshots,
      RecoveryCoordinator recovery) {
    this.snapshots = snapshots;
    this.recovery = recovery;
    this.raft = raft;
    this.batcher = batcher;
    this.store = store;
    this.registry = registry;
    this.newFiles =
        new NewFilePlacement(store, registry, placement, defaultLayout, defaultStripeUnit);
  }

  @Override
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    call.payload().release();
    MetaRequestProto req;
    try {
      req = MetaRequestProto.parseFrom(call.header());
    } catch (InvalidProtocolBufferException e) {
      return done(
          Replies.error(
              StatusProto.INVALID_ARGUMENT, "request is not a meta.proto MetaRequestProto"));
    }
    LeaderStatus refusal = LeaderStatus.check(raft);
    if (req.getOpCase() == MetaRequestProto.OpCase.CLUSTER_STATUS) {
      // the leader knows liveness first-hand and runs recovery; without one, any replica answers
      boolean leaderKnown =
          refusal != null
              && refusal.status() == StatusProto.NOT_LEADER
              && !refusal.leaderHint().isEmpty();
      return done(leaderKnown ? refuse(refusal) : clusterStatus(refusal == null));
    }
    if (refusal != null) {
      return followerMayAnswer(req, refusal) ? followerRead(req, refusal) : done(refuse(refusal));
    }
    if (req.getOpCase() == MetaRequestProto.OpCase.SNAPSHOT_CREATE) {
      return snapshots
          .create(req.getSnapshotCreate().getName(), req.getCaller(), req.getCallId())
          .thenApply(RpcReply::of);
    }
    if (req.getOpCase() == MetaRequestProto.OpCase.REPAIR_STRIPES) {
      return recovery
          .repairStripes(
              req.getRepairStripes().getFileId(), req.getRepairStripes().getStripesList())
          .thenApply(RpcReply::of);
    }
    if (req.getOpCase() == MetaRequestProto.OpCase.DECOMMISSION) {
      String server = req.getDecommission().getServer();
      return (req.getDecommission().getRemove()
              ? remove(server, req.getDecommission().getForce())
              : req.getDecommission().getUndo() ? recommission(server) : decommission(server))
          .thenApply(RpcReply::of);
    }
    if (!NamespaceChanges.isChange(req)) {
      if (req.getOpCase() == MetaRequestProto.OpCase.OP_NOT_SET) {
        return done(Replies.error(StatusProto.INVALID_ARGUMENT, "request names no operation"));
      }
      return raft.read(query(req))
          .handle(
              (reply, err) ->
                  err != null || !reply.isSuccess()
                      ? refuse(LeaderStatus.of(err != null ? err : reply.getException(), raft))
                      : queryResult(reply))
          .thenApply(RpcReply::of);
    }
    try {
      req = NamespaceChanges.prepare(req, newFiles);
    } catch (NamespaceException e) {
      return done(Replies.error(e.status(), e.getMessage()));
    }
    MetaTxnProto txn =
        MetaTxnProto.newBuilder().setTimeMs(System.currentTimeMillis()).setClient(req).build();
    return batcher
        .submit(txn)
        .handle(
            (reply, err) -> err != null ? refuse(LeaderStatus.of(err, raft)) : reply.getClient())
        .thenApply(RpcReply::of);
  }

  /**
   * Whether this replica, not the leader, answers a read from its own state: the client asks for it
   * after failing to reach the leader, and this replica knows no leader or only that one (an
   * election is under way). A replica that knows another leader sends the client there.
   */
  private static boolean followerMayAnswer(MetaRequestProto req, LeaderStatus refusal) {
    return FollowerReads.answerable(req)
        && req.getFollowerReadOk()
        && (refusal.leaderHint().isEmpty()
            || refusal.leaderHint().equals(req.getUnreachableLeader()));
  }

  /**
   * The read answered here once this replica has applied what the client has seen; else the
   * refusal.
   */
  private CompletableFuture<RpcReply> followerRead(MetaRequestProto req, LeaderStatus refusal) {
    return raft.staleRead(query(req), req.getSeenIndex())
        .handle(
            (reply, err) ->
                err != null || !reply.isSuccess() ? refuse(refusal) : queryResult(reply))
        .thenApply(RpcReply::of);
  }

  private static byte[] query(MetaRequestProto req) {
    return MetaQueryProto.newBuilder().setClient(req).build().toByteArray();
  }

  private static MetaResponseProto queryResult(RaftClientReply reply) {
    try {
      return MetaResponseProto.parseFrom(reply.getMessage().getContent().toByteArray());
    } catch (InvalidProtocolBufferException e) {
      return Replies.error(StatusProto.INTERNAL, "unreadable query result");
    }
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
                    ? refuse(LeaderStatus.of(err, raft))
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

  /**
   * {@code firstHand}: this replica leads, so it hears every heartbeat. Without a leader (the group
   * lost its majority, or is electing), a replica has heard only the heartbeats that changed
   * something: it reports each data server as the last leader recorded it, and how long since it
   * was heard as unknown (-1), rather than every server as silent and DOWN.
   */
  private MetaResponseProto clusterStatus(boolean firstHand) {
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

  private static MetaResponseProto refuse(LeaderStatus s) {
    return MetaResponseProto.newBuilder()
        .setStatus(s.status())
        .setMessage(s.message())
        .setLeaderHint(s.leaderHint())
        .build();
  }

  private static CompletableFuture<RpcReply> done(MetaResponseProto r) {
    return CompletableFuture.completedFuture(RpcReply.of(r));
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return RpcReply.of(Replies.error(StatusProto.INTERNAL, String.valueOf(cause.getMessage())));
  }
}
