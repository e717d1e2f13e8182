package io.tessera.meta.server;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.cluster.FollowerReads;
import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.status.TesseraException;
import io.tessera.meta.auth.AuditTrail;
import io.tessera.meta.auth.CallerGate;
import io.tessera.meta.auth.TokenIssuer;
import io.tessera.meta.proto.MetaQueryProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.ratis.LogBytes;
import io.tessera.meta.ratis.RaftSubmitter;
import io.tessera.meta.recovery.RecoveryCoordinator;
import io.tessera.meta.regions.RegionHome;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.snapshot.SnapshotCoordinator;
import io.tessera.meta.state.NamespaceChanges;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.Replies;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.ratis.protocol.RaftClientReply;

/**
 * Serves meta.proto on the leader: the caller is identified and admitted ({@link CallerGate}),
 * changes are completed (time, layout, placement) and group-committed through the log, reads go
 * through Ratis's read path; answers that open a file carry an access token, and admin requests are
 * audited. Followers answer with the leader's address.
 */
final class MetaRequestHandler implements RpcService {
  private final RaftSubmitter raft;
  private final TxnBatcher batcher;

  /** Guards the disk of this replica's state: a full Raft log or RocksDB would stop the replica. */
  private final GroupSpace space;

  /**
   * Changes taken even on a full disk: they free space (removes, truncates and other attribute
   * changes), or keep the cluster safe and accountable (revocations, the audit of either).
   */
  private static final Set<MetaRequestProto.OpCase> FREE_WHEN_FULL =
      EnumSet.of(
          MetaRequestProto.OpCase.REMOVE,
          MetaRequestProto.OpCase.SET_ATTR,
          MetaRequestProto.OpCase.SNAPSHOT_DELETE,
          MetaRequestProto.OpCase.CREDENTIALS_REVOKE,
          MetaRequestProto.OpCase.AUDIT_APPEND);

  private final NewFilePlacement newFiles;
  private final CoordinatorOps coordinators;
  private final ClusterStatusReport clusterStatus;
  private final MetaMetrics metrics;
  private final CallerGate gate;
  private final TokenIssuer tokens;
  private final AuditTrail audit;

  MetaRequestHandler(
      RaftSubmitter raft,
      TxnBatcher batcher,
      Supplier<NamespaceStore> store,
      DataServerRegistry registry,
      NewFilePlacement newFiles,
      SnapshotCoordinator snapshots,
      RecoveryCoordinator recovery,
      RegionHome regions,
      MetaMetrics metrics,
      CallerGate gate,
      TokenIssuer tokens,
      AuditTrail audit,
      GroupSpace space) {
    this.space = space;
    this.raft = raft;
    this.metrics = metrics;
    this.batcher = batcher;
    this.gate = gate;
    this.tokens = tokens;
    this.audit = audit;
    this.coordinators =
        new CoordinatorOps(
            snapshots, recovery, new ServerRetirement(raft, batcher, store, registry), regions);
    this.clusterStatus = new ClusterStatusReport(raft, store, registry, recovery);
    this.newFiles = newFiles;
  }

  @Override
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    long start = System.nanoTime();
    call.payload().release();
    MetaRequestProto parsed;
    try {
      parsed = MetaRequestProto.parseFrom(call.header());
    } catch (InvalidProtocolBufferException e) {
      return done(
          Replies.error(
              StatusProto.INVALID_ARGUMENT, "request is not a meta.proto MetaRequestProto"));
    }
    MetaRequestProto req = null;
    try {
      req = gate.identify(call, parsed);
      if (AuditTrail.audited(req.getOpCase(), true)) {
        LeaderStatus refusal = LeaderStatus.check(raft);
        if (refusal != null) {
          // the leader decides admin requests, so that it audits their refusals too
          return done(LeaderStatus.reply(refusal));
        }
      }
      gate.authorize(call, req);
    } catch (NamespaceException e) {
      if (raft.isLeader()) {
        // a caller refused before it was identified is named as far as its certificate tells
        MetaRequestProto refused =
            req != null ? req : parsed.toBuilder().setActor(refusedActor(call)).build();
        audit.record(refused, e.status(), e.getMessage());
      }
      return done(Replies.error(e.status(), e.getMessage()));
    }
    return serve(req, start).thenApply(RpcReply::of);
  }

  /** Who a caller refused before it was identified is, as far as the audit log can tell. */
  private static ActorProto refusedActor(RpcCall call) {
    ActorProto.Builder b = ActorProto.newBuilder().setFrom(String.valueOf(call.remote()));
    if (call.identity() != null) {
      b.setName(call.identity().name());
    }
    return b.build();
  }

  private CompletableFuture<MetaResponseProto> serve(MetaRequestProto req, long start) {
    if (req.getOpCase() == MetaRequestProto.OpCase.REPLICA_SPACE) {
      return CompletableFuture.completedFuture(space.answer()); // each replica for itself
    }
    LeaderStatus refusal = LeaderStatus.check(raft);
    if (req.getOpCase() == MetaRequestProto.OpCase.CLUSTER_STATUS) {
      // the leader knows liveness first-hand and runs recovery; without one, any replica answers
      boolean leaderKnown =
          refusal != null
              && refusal.status() == StatusProto.NOT_LEADER
              && !refusal.leaderHint().isEmpty();
      // a replica that knows no leader may be the one cut off: it answers only a caller that
      // found no leader elsewhere either
      boolean leaderlessAnswer = refusal != null && !leaderKnown && req.getFollowerReadOk();
      return CompletableFuture.completedFuture(
          refusal == null || leaderlessAnswer
              ? clusterStatus.report(refusal == null)
              : LeaderStatus.reply(refusal));
    }
    if (refusal != null) {
      return followerMayAnswer(req, refusal)
          ? followerRead(req, refusal).thenApply(r -> tokens.attach(req, r))
          : CompletableFuture.completedFuture(LeaderStatus.reply(refusal));
    }
    MetaRequestProto.OpCase op = req.getOpCase();
    return answer(req)
        .whenComplete(
            (reply, err) -> {
              metrics.requests.record(op, start, err == null);
              if (err == null && op == MetaRequestProto.OpCase.SNAPSHOT_CREATE) {
                metrics.snapshotTaken((System.nanoTime() - start) / 1e9);
              }
              if (err == null && reply.getStatus() != StatusProto.NOT_LEADER) {
                audit.record(req, reply.getStatus(), reply.getMessage());
              }
            })
        .thenApply(r -> tokens.attach(req, r));
  }

  /** The leader's answer. */
  private CompletableFuture<MetaResponseProto> answer(MetaRequestProto req) {
    CoordinatorOps.Op coordinated = coordinators.get(req.getOpCase());
    if (coordinated != null) {
      return coordinated.serve(req);
    }
    if (!NamespaceChanges.isChange(req)) {
      if (req.getOpCase() == MetaRequestProto.OpCase.OP_NOT_SET) {
        return CompletableFuture.completedFuture(
            Replies.error(StatusProto.INVALID_ARGUMENT, "request names no operation"));
      }
      return raft.read(query(req))
          .handle(
              (reply, err) ->
                  err != null || !reply.isSuccess()
                      ? LeaderStatus.reply(
                          LeaderStatus.of(err != null ? err : reply.getException(), raft))
                      : queryResult(reply));
    }
    if (!FREE_WHEN_FULL.contains(req.getOpCase())) {
      String full = space.refusal();
      if (full != null) {
        return CompletableFuture.completedFuture(Replies.error(StatusProto.NO_SPACE, full));
      }
    }
    MetaRequestProto logged =
        req.getOpCase() == MetaRequestProto.OpCase.AUDIT_APPEND ? audit.rewrite(req) : req;
    try {
      logged = NamespaceChanges.prepare(logged, newFiles);
    } catch (NamespaceException e) {
      return CompletableFuture.completedFuture(Replies.error(e.status(), e.getMessage()));
    }
    MetaTxnProto txn =
        MetaTxnProto.newBuilder().setTimeMs(System.currentTimeMillis()).setClient(logged).build();
    return batcher
        .submit(txn)
        .handle(
            (reply, err) ->
                err != null ? LeaderStatus.reply(LeaderStatus.of(err, raft)) : reply.getClient());
  }

  /**
   * Whether this replica, not the leader, answers a read from its own state: the client asks for it
   * after failing to reach the leader, and this replica knows no leader or only that one (an
   * election is under way). A replica that knows another leader sends the client there.
   */
  /**
   * A read another replica may answer from its own state while the leader cannot: only one that
   * heard from a leader lately, so a replica cut off from the group never serves what it knew
   * before for longer than an election takes.
   */
  private boolean followerMayAnswer(MetaRequestProto req, LeaderStatus refusal) {
    return FollowerReads.answerable(req)
        && req.getFollowerReadOk()
        && raft.heardFromLeaderLately()
        && (refusal.leaderHint().isEmpty()
            || refusal.leaderHint().equals(req.getUnreachableLeader()));
  }

  /**
   * The read answered here once this replica has applied what the client has seen; else the
   * refusal.
   */
  private CompletableFuture<MetaResponseProto> followerRead(
      MetaRequestProto req, LeaderStatus refusal) {
    return raft.staleRead(query(req), req.getSeenIndex())
        .handle(
            (reply, err) ->
                err != null || !reply.isSuccess()
                    ? LeaderStatus.reply(refusal)
                    : queryResult(reply));
  }

  private static byte[] query(MetaRequestProto req) {
    return MetaQueryProto.newBuilder().setClient(req).build().toByteArray();
  }

  private static MetaResponseProto queryResult(RaftClientReply reply) {
    try {
      return MetaResponseProto.parseFrom(LogBytes.content(reply));
    } catch (InvalidProtocolBufferException e) {
      return Replies.error(StatusProto.INTERNAL, "unreadable query result");
    }
  }

  private static CompletableFuture<RpcReply> done(MetaResponseProto r) {
    return CompletableFuture.completedFuture(RpcReply.of(r));
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return RpcReply.of(
        Replies.error(TesseraException.statusOf(cause), String.valueOf(cause.getMessage())));
  }
}
