package io.tessera.meta.server;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.cluster.ServerIds;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.HeartbeatResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.HostPort;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.security.Identity;
import io.tessera.common.status.TesseraException;
import io.tessera.meta.proto.HeartbeatQueryReplyProto;
import io.tessera.meta.proto.MetaQueryProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.ratis.LogBytes;
import io.tessera.meta.ratis.RaftSubmitter;
import java.util.concurrent.CompletableFuture;

/**
 * Serves heartbeat.proto on the leader. A report that changes nothing replicated is answered from
 * the leader's applied state (a linearizable read): an idle cluster's heartbeats cost no log
 * entries, fsyncs or applies on the replicas. Any other report goes through the log.
 */
final class HeartbeatHandler implements RpcService {
  /**
   * Most orphan locks, and most corrupt files, one heartbeat may report (data servers send up to
   * 64).
   */
  static final int MAX_REPORTS = 64;

  private final RaftSubmitter raft;
  private final TxnBatcher batcher;

  /** This replica's recovery coordinator's lock owner id, told to data servers while it leads. */
  private final ByteString coordinator;

  HeartbeatHandler(RaftSubmitter raft, TxnBatcher batcher, ByteString coordinator) {
    this.raft = raft;
    this.batcher = batcher;
    this.coordinator = coordinator;
  }

  @Override
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    call.payload().release();
    HeartbeatRequestProto hb;
    try {
      hb = HeartbeatRequestProto.parseFrom(call.header());
      if (!ServerIds.valid(hb.getServerId())) {
        return done(
            error(
                StatusProto.INVALID_ARGUMENT, "server id '" + hb.getServerId() + "' is not valid"));
      }
      HostPort.parse(hb.getAddress());
      if (hb.getOrphanLocksCount() > MAX_REPORTS || hb.getCorruptFilesCount() > MAX_REPORTS) {
        return done(
            error(
                StatusProto.INVALID_ARGUMENT,
                "a heartbeat reports at most "
                    + MAX_REPORTS
                    + " orphan locks and "
                    + MAX_REPORTS
                    + " corrupt files; got "
                    + hb.getOrphanLocksCount()
                    + " and "
                    + hb.getCorruptFilesCount()));
      }
    } catch (InvalidProtocolBufferException e) {
      return done(
          error(
              StatusProto.INVALID_ARGUMENT,
              "request is not a heartbeat.proto HeartbeatRequestProto"));
    } catch (IllegalArgumentException e) {
      return done(error(StatusProto.INVALID_ARGUMENT, e.getMessage()));
    }
    Identity caller = call.identity();
    if (caller != null
        && (!caller.isServer(Identity.Role.DATA) || !caller.name().equals(hb.getServerId()))) {
      // a heartbeat registers an address for a server id: only that server's certificate may
      return done(
          error(
              StatusProto.PERMISSION_DENIED,
              "permission denied: "
                  + caller.describe()
                  + " may not report for data server "
                  + hb.getServerId()));
    }
    LeaderStatus refusal = LeaderStatus.check(raft);
    if (refusal != null) {
      return done(refuse(refusal));
    }
    HeartbeatRequestProto report = hb;
    return raft.read(MetaQueryProto.newBuilder().setHeartbeat(hb).build().toByteArray())
        .thenCompose(
            q -> {
              if (!q.isSuccess()) {
                return CompletableFuture.<HeartbeatResponseProto>failedFuture(q.getException());
              }
              HeartbeatQueryReplyProto answer;
              try {
                answer = HeartbeatQueryReplyProto.parseFrom(LogBytes.content(q));
              } catch (InvalidProtocolBufferException e) {
                return CompletableFuture.<HeartbeatResponseProto>failedFuture(e);
              }
              return answer.getNeedsLog()
                  ? logged(report)
                  : CompletableFuture.completedFuture(answer.getReply());
            })
        .handle(
            (r, err) ->
                err != null
                    ? refuse(LeaderStatus.of(err, raft))
                    : r.toBuilder()
                        .setCoordinator(coordinator)
                        .setLeaderTimeMs(System.currentTimeMillis())
                        .build())
        .thenApply(RpcReply::of);
  }

  /**
   * A heartbeat that changes replicated state (registration, a server back from DOWN, reports) goes
   * through the log.
   */
  private CompletableFuture<HeartbeatResponseProto> logged(HeartbeatRequestProto hb) {
    MetaTxnProto txn =
        MetaTxnProto.newBuilder().setTimeMs(System.currentTimeMillis()).setHeartbeat(hb).build();
    return batcher.submit(txn).thenApply(MetaTxnReplyProto::getHeartbeat);
  }

  private static HeartbeatResponseProto refuse(LeaderStatus s) {
    return HeartbeatResponseProto.newBuilder()
        .setStatus(s.status())
        .setMessage(s.message())
        .setLeaderHint(s.leaderHint())
        .build();
  }

  private static HeartbeatResponseProto error(StatusProto status, String message) {
    return HeartbeatResponseProto.newBuilder().setStatus(status).setMessage(message).build();
  }

  private static CompletableFuture<RpcReply> done(HeartbeatResponseProto r) {
    return CompletableFuture.completedFuture(RpcReply.of(r));
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return RpcReply.of(error(TesseraException.statusOf(cause), String.valueOf(cause.getMessage())));
  }
}
