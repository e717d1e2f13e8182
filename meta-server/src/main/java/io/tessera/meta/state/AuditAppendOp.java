package io.tessera.meta.state;

import io.tessera.common.proto.AuditEntriesProto;
import io.tessera.common.proto.AuditEntryProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/**
 * Records one console action in the replicated audit log, numbered in log order; each field is cut
 * to {@link #MAX_FIELD} characters so that no caller can grow the log without bound.
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
    AuditEntryProto e = req.getAuditAppend().getEntry();
    if (e.getTimeMs() == 0) {
      e = e.toBuilder().setTimeMs(now).build();
    }
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setAudit(AuditEntriesProto.newBuilder().addEntries(tx.appendAudit(e)))
        .build();
  }

  private static String cut(String s) {
    return s.length() <= MAX_FIELD ? s : s.substring(0, MAX_FIELD);
  }
}
