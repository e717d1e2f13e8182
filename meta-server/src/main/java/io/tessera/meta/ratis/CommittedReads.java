package io.tessera.meta.ratis;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.proto.ConsoleTokensProto;
import io.tessera.common.proto.CredentialsProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.QosSettingsProto;
import io.tessera.common.proto.SnapshotListResponseProto;
import io.tessera.common.proto.SnapshotProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.HeartbeatQueryReplyProto;
import io.tessera.meta.proto.MetaQueryProto;
import io.tessera.meta.proto.ServerStateRecordProto;
import io.tessera.meta.registry.DataServerRegistry;
import io.tessera.meta.snapshot.SnapshotViews;
import io.tessera.meta.state.Actor;
import io.tessera.meta.state.AuditLog;
import io.tessera.meta.state.NamespaceException;
import io.tessera.meta.state.NamespaceQueries;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.ReplicatedChanges;
import io.tessera.meta.state.Replies;
import io.tessera.meta.state.SecurityRecords;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Answers queries (metalog.proto's {@code MetaQueryProto}) from the committed state, without a log
 * entry: clients' lookups, listings and snapshot lists, and heartbeats that change nothing
 * replicated.
 */
final class CommittedReads {
  private final Supplier<NamespaceStore> store;
  private final SnapshotViews snapshotViews;
  private final DataServerRegistry registry;
  private final ReplicatedChanges changes;
  private final LongSupplier appliedIndex;

  CommittedReads(
      Supplier<NamespaceStore> store,
      SnapshotViews snapshotViews,
      DataServerRegistry registry,
      ReplicatedChanges changes,
      LongSupplier appliedIndex) {
    this.store = store;
    this.snapshotViews = snapshotViews;
    this.registry = registry;
    this.changes = changes;
    this.appliedIndex = appliedIndex;
  }

  byte[] answer(ByteBuffer query) {
    MetaQueryProto q;
    try {
      q = MetaQueryProto.parseFrom(query);
    } catch (InvalidProtocolBufferException e) {
      return Replies.error(StatusProto.INVALID_ARGUMENT, "unreadable query: " + e.getMessage())
          .toByteArray();
    }
    return q.hasHeartbeat()
        ? heartbeat(q.getHeartbeat()).toByteArray()
        : client(q.getClient()).toByteArray();
  }

  /**
   * A heartbeat answered without a log entry, on the leader, when it changes nothing replicated:
   * the liveness it brings stays in this replica's registry (a replica that takes over from a
   * leader counts the servers not DOWN as heard then, see {@link
   * MetaStateMachine#notifyLeaderChanged}).
   */
  private HeartbeatQueryReplyProto heartbeat(HeartbeatRequestProto hb) {
    NamespaceStore s = store.get();
    ServerStateRecordProto rec = s.serverStates().get(hb.getServerId());
    DataServerStateProto state = rec == null ? DataServerStateProto.UP : rec.getState();
    boolean unchanged =
        hb.getAddress().equals(registry.address(hb.getServerId()))
            && hb.getProxyAddress().equals(registry.proxyAddress(hb.getServerId()))
            && hb.getCorruptFilesCount() == 0
            && hb.getGateAttempt() == 0
            && (state == DataServerStateProto.UP || state == DataServerStateProto.RECOVERING);
    if (!unchanged) {
      return HeartbeatQueryReplyProto.newBuilder().setNeedsLog(true).build();
    }
    registry.heartbeat(hb);
    long[] retained = s.snapshots().stream().mapToLong(SnapshotProto::getEpoch).sorted().toArray();
    return HeartbeatQueryReplyProto.newBuilder()
        .setReply(
            changes.heartbeatReply(
                s.epoch(),
                retained,
                state,
                ReplicatedChanges.security(
                    hb, SecurityRecords.accessKeys(s), SecurityRecords.revocations(s))))
        .build();
  }

  /**
   * Issued credentials and the revocation list; for a caller that holds version {@code since}
   * already, the version alone (servers poll it).
   */
  private static MetaResponseProto credentials(NamespaceStore s, long since) {
    var revocations = SecurityRecords.revocations(s);
    CredentialsProto.Builder c = CredentialsProto.newBuilder();
    if (since == 0) {
      c.addAllIssued(SecurityRecords.issued(s));
    }
    c.setRevocations(
        revocations.getVersion() > since
            ? revocations
            : revocations.toBuilder().clearEntries().build());
    return MetaResponseProto.newBuilder().setStatus(StatusProto.OK).setCredentials(c).build();
  }

  private MetaResponseProto client(MetaRequestProto req) {
    NamespaceStore s = store.get();
    Actor actor = Actor.of(req.getActor());
    MetaResponseProto reply;
    try {
      reply =
          switch (req.getOpCase()) {
            case GET_ATTR ->
                SnapshotViews.isSnapshotPath(req.getGetAttr().getPath())
                    ? snapshotViews.getAttr(s, req.getGetAttr(), actor)
                    : NamespaceQueries.getAttr(s, req.getGetAttr(), actor);
            case READ_DIR ->
                SnapshotViews.isSnapshotPath(req.getReadDir().getPath())
                    ? snapshotViews.readDir(s, req.getReadDir(), actor)
                    : NamespaceQueries.readDir(s, req.getReadDir(), actor);
            case SNAPSHOT_LIST ->
                MetaResponseProto.newBuilder()
                    .setStatus(StatusProto.OK)
                    .setSnapshots(
                        SnapshotListResponseProto.newBuilder()
                            .addAllSnapshots(s.snapshots())
                            .setEpoch(s.epoch()))
                    .build();
            case QOS_LIST ->
                MetaResponseProto.newBuilder()
                    .setStatus(StatusProto.OK)
                    .setQos(QosSettingsProto.newBuilder().addAllApps(s.qosSettings()))
                    .build();
            case CONSOLE_TOKEN_LIST ->
                MetaResponseProto.newBuilder()
                    .setStatus(StatusProto.OK)
                    .setConsoleTokens(
                        ConsoleTokensProto.newBuilder().addAllTokens(s.consoleTokens()))
                    .build();
            case AUDIT_LIST ->
                MetaResponseProto.newBuilder()
                    .setStatus(StatusProto.OK)
                    .setAudit(
                        AuditLog.page(
                            s,
                            s.audit(
                                req.getAuditList().getBeforeSeq(),
                                Math.min(1000, Math.max(1, req.getAuditList().getLimit())))))
                    .build();
            case CREDENTIALS_LIST -> credentials(s, req.getCredentialsList().getSinceVersion());
            default ->
                Replies.error(StatusProto.INVALID_ARGUMENT, req.getOpCase() + " is not a read");
          };
    } catch (NamespaceException e) {
      reply = Replies.error(e.status(), e.getMessage());
    }
    // what a client has seen: a replica answering its reads while no leader does must have applied
    // it. The newest change to what was read where the inodes record it, else all it applied
    long applied = Math.max(0, appliedIndex.getAsLong());
    MetaResponseProto.Builder b = reply.toBuilder().setAppliedIndex(applied);
    return (reply.getIndex() != 0 ? b : b.setIndex(applied)).build();
  }
}
