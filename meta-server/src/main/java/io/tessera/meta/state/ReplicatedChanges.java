package io.tessera.meta.state;

import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.HeartbeatResponseProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RevocationsProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.AccessKeysProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnProto.TxnCase;
import io.tessera.meta.proto.MetaTxnReplyProto;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every kind of replicated change (metalog.proto's {@code MetaTxnProto}), applied to one namespace
 * transaction: one registration line per kind, the change itself in its area (namespace ops, server
 * states, snapshot catalog). Deterministic: every replica produces the same state and reply.
 */
public final class ReplicatedChanges {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicatedChanges.class);

  /** One kind of change: applies it and says what the caller is answered. */
  private interface Change {
    MetaTxnReplyProto apply(NamespaceTxn tx, MetaTxnProto txn);
  }

  private final Map<TxnCase, Change> changes = new EnumMap<>(TxnCase.class);
  private final ReplyCache replies = new ReplyCache(200_000);
  private final ServerLiveness liveness;
  private final Duration heartbeatInterval;

  public ReplicatedChanges(ServerLiveness liveness, Duration heartbeatInterval) {
    this.liveness = liveness;
    this.heartbeatInterval = heartbeatInterval;
    changes.put(TxnCase.CLIENT, this::clientChange);
    changes.put(TxnCase.HEARTBEAT, this::heartbeat);
    changes.put(
        TxnCase.SNAPSHOT_BEGIN,
        (tx, t) -> client(atomically(tx, () -> SnapshotCatalog.begin(tx, t.getSnapshotBegin()))));
    changes.put(
        TxnCase.SNAPSHOT_COMMIT,
        (tx, t) ->
            client(
                atomically(
                    tx, () -> SnapshotCatalog.commit(tx, t.getSnapshotCommit(), t.getTimeMs()))));
    changes.put(
        TxnCase.SNAPSHOT_ABORT,
        (tx, t) -> {
          SnapshotCatalog.abort(tx, t.getSnapshotAbort().getAttempt());
          return ok();
        });
    changes.put(TxnCase.SERVER_STATE, this::serverState);
    changes.put(
        TxnCase.REBUILD_DONE,
        (tx, t) -> {
          ServerStates.rebuilt(tx, t.getRebuildDone());
          return ok();
        });
    changes.put(
        TxnCase.LAYOUT_MOVE,
        (tx, t) -> outcome(ServerStates.moved(tx, t.getLayoutMove()), "layout changed meanwhile"));
    changes.put(
        TxnCase.PARTIAL_EXPIRED,
        (tx, t) ->
            outcome(
                tx.atomically(
                    () ->
                        PartialFiles.expire(tx, t.getPartialExpired().getFileId(), t.getTimeMs())),
                "renewed or gone"));
    changes.put(
        TxnCase.LEFTOVER_DROPPED,
        (tx, t) -> {
          tx.leftoverDropped(
              t.getLeftoverDropped().getFileId(), t.getLeftoverDropped().getServer());
          return ok();
        });
    changes.put(
        TxnCase.ACCESS_KEY,
        (tx, t) -> {
          SecurityRecords.addKey(tx, t.getAccessKey());
          return ok();
        });
    changes.put(
        TxnCase.RECLAIM_DONE,
        (tx, t) -> {
          tx.reclaimDone(t.getReclaimDone().getFileId());
          t.getReclaimDone().getMoreFileIdsList().forEach(tx::reclaimDone);
          return ok();
        });
  }

  /** Applies one change of a log entry; an unknown kind changes nothing and is answered so. */
  public MetaTxnReplyProto apply(NamespaceTxn tx, MetaTxnProto txn) {
    Change change = changes.get(txn.getTxnCase());
    return change != null
        ? change.apply(tx, txn)
        : client(Replies.error(StatusProto.INVALID_ARGUMENT, "empty log record"));
  }

  /** A client's change, applied once however often the client retried it. */
  private MetaTxnReplyProto clientChange(NamespaceTxn tx, MetaTxnProto txn) {
    MetaRequestProto req = txn.getClient();
    var client = req.getCaller().getClientId();
    MetaResponseProto reply = replies.get(client, req.getCallId());
    if (reply == null) {
      reply =
          req.hasSnapshotDelete()
              ? atomically(
                  tx,
                  () -> {
                    Permissions.requireAdmin(Actor.of(req.getActor()), "delete snapshots");
                    return SnapshotCatalog.drop(tx, req.getSnapshotDelete().getName());
                  })
              : NamespaceChanges.apply(tx, req, txn.getTimeMs());
    }
    replies.put(client, req.getCallId(), reply);
    return client(reply);
  }

  private MetaTxnReplyProto heartbeat(NamespaceTxn tx, MetaTxnProto txn) {
    HeartbeatRequestProto hb = txn.getHeartbeat();
    if (liveness.heartbeat(hb)) {
      tx.registerServer(hb);
    }
    ServerStates.corrupt(tx, hb.getServerId(), hb.getCorruptFilesList());
    if (hb.getGateAttempt() != 0 && SnapshotCatalog.abort(tx, hb.getGateAttempt())) {
      LOG.warn(
          "Snapshot attempt {} aborted: data server {} waited too long for its COMMIT",
          hb.getGateAttempt(),
          hb.getServerId());
    }
    DataServerStateProto state = ServerStates.heard(tx, hb.getServerId(), txn.getTimeMs());
    return MetaTxnReplyProto.newBuilder()
        .setHeartbeat(
            heartbeatReply(
                tx.epoch(),
                tx.retainedEpochs(),
                state,
                security(hb, SecurityRecords.accessKeys(tx), SecurityRecords.revocations(tx))))
        .build();
  }

  private MetaTxnReplyProto serverState(NamespaceTxn tx, MetaTxnProto txn) {
    boolean changed = ServerStates.change(tx, txn.getServerState(), txn.getTimeMs());
    if (changed && txn.getServerState().getRemoved()) {
      liveness.forget(txn.getServerState().getServer());
    }
    return outcome(changed, "state unchanged");
  }

  /**
   * What of the security state a heartbeat's sender lacks: the access keys when its newest is not
   * the group's, the revocation list when its version is older.
   */
  public static HeartbeatResponseProto security(
      HeartbeatRequestProto hb, AccessKeysProto keys, RevocationsProto revocations) {
    HeartbeatResponseProto.Builder b = HeartbeatResponseProto.newBuilder();
    int newest = keys.getKeysCount() == 0 ? 0 : keys.getKeys(keys.getKeysCount() - 1).getId();
    if (newest != hb.getNewestAccessKey()) {
      b.addAllAccessKeys(keys.getKeysList());
    }
    if (revocations.getVersion() > hb.getRevocationsVersion()) {
      b.setRevocations(revocations);
    }
    return b.build();
  }

  /**
   * What a data server is told in answer to its heartbeat; {@code security} is what it lacks of the
   * security state (see {@link #security}).
   */
  public HeartbeatResponseProto heartbeatReply(
      long epoch,
      long[] retainedEpochs,
      DataServerStateProto state,
      HeartbeatResponseProto security) {
    HeartbeatResponseProto.Builder r =
        security.toBuilder()
            .setStatus(StatusProto.OK)
            .setEpoch(epoch)
            .setHeartbeatIntervalMs(heartbeatInterval.toMillis())
            .setState(state);
    for (long e : retainedEpochs) {
      r.addRetainedEpochs(e);
    }
    return r.build();
  }

  private static MetaResponseProto atomically(NamespaceTxn tx, Supplier<MetaResponseProto> change) {
    try {
      return tx.atomically(change);
    } catch (NamespaceException e) {
      return Replies.error(e.status(), e.getMessage());
    }
  }

  private static MetaTxnReplyProto outcome(boolean done, String otherwise) {
    return client(Replies.error(done ? StatusProto.OK : StatusProto.BUSY, done ? "" : otherwise));
  }

  private static MetaTxnReplyProto ok() {
    return client(Replies.error(StatusProto.OK, ""));
  }

  private static MetaTxnReplyProto client(MetaResponseProto r) {
    return MetaTxnReplyProto.newBuilder().setClient(r).build();
  }
}
