package io.tessera.meta.state;

import io.tessera.common.proto.AuditEntriesProto;
import io.tessera.common.proto.AuditEntryProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/**
 * Records one entry in the replicated audit log (see {@link AuditLog}); the leader wrote the
 * request (who, from, the bounds), and each field is cut to {@link #MAX_FIELD} characters so that
 * no caller can grow the log without bound.
 */
final class AuditAppendOp implements NamespaceOp {
  static final int MAX_FIELD = 1024;

  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of();
  }

  @Override
  public MetaRequestProto prepare(MetaRequestProto req, Leader leader) {
    AuditEntryProto e = req.getAuditAppend().getEntry();
    AuditEntryProto cut =
        e.toBuilder()
            .setWho(cut(e.getWho()))
            .setFrom(cut(e.getFrom()))
            .setAction(cut(e.getAction()))
            .setTarget(cut(e.getTarget()))
            .setResult(cut(e.getResult()))
            .build();
    return req.toBuilder().setAuditAppend(req.getAuditAppend().toBuilder().setEntry(cut)).build();
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    // reached only from the leader itself and from meta replicas' consoles (CallerGate)
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setAudit(
            AuditEntriesProto.newBuilder()
                .addEntries(AuditLog.append(tx, req.getAuditAppend(), now)))
        .build();
  }

  private static String cut(String s) {
    return s.length() <= MAX_FIELD ? s : s.substring(0, MAX_FIELD);
  }
}
