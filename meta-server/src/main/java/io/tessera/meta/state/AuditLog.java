package io.tessera.meta.state;

import io.tessera.common.proto.AuditAppendRequestProto;
import io.tessera.common.proto.AuditEntriesProto;
import io.tessera.common.proto.AuditEntryProto;
import java.util.List;

/**
 * The replicated audit log: entries numbered in log order under {@code audit/<seq>}, the oldest
 * dropped once older than the request's bound or beyond its count, and how many were dropped (and
 * how many refusals were only counted) kept beside them, so a reader sees that something is
 * missing.
 */
public final class AuditLog {
  private static final byte[] NEXT = Keys.utf8("audit-next");
  private static final byte[] FIRST = Keys.utf8("audit-first");
  private static final byte[] DROPPED = Keys.utf8("audit-dropped");
  private static final byte[] COUNTED = Keys.utf8("audit-refusals-counted");

  /** Entries an append drops at most: a lowered bound shortens the log over several appends. */
  private static final int DROP_PER_APPEND = 64;

  private AuditLog() {}

  /** Appends the request's entry at {@code now}; returns it numbered. */
  static AuditEntryProto append(NamespaceTxn tx, AuditAppendRequestProto req, long now) {
    long next = value(tx, NEXT, 1);
    long first = value(tx, FIRST, 1);
    AuditEntryProto numbered = req.getEntry().toBuilder().setSeq(next).setTimeMs(now).build();
    tx.putSystem(NamespaceStore.auditKey(next), numbered.toByteArray());
    next++;
    long dropped = 0;
    long keep = req.getKeepEntries() == 0 ? Long.MAX_VALUE : req.getKeepEntries();
    while (first < next - 1 && dropped < DROP_PER_APPEND) {
      byte[] oldest = tx.systemValue(NamespaceStore.auditKey(first));
      boolean tooMany = next - first > keep;
      boolean tooOld = oldest != null && timeOf(oldest) < req.getDropBeforeMs();
      if (oldest != null && !tooMany && !tooOld) {
        break;
      }
      tx.deleteSystem(NamespaceStore.auditKey(first));
      first++;
      dropped++;
    }
    tx.putSystem(NEXT, Keys.id(next));
    tx.putSystem(FIRST, Keys.id(first));
    add(tx, DROPPED, dropped);
    add(tx, COUNTED, req.getRefusalsCounted());
    return numbered;
  }

  /** A page of entries (newest first) with the counts of what is not among them. */
  public static AuditEntriesProto page(NamespaceStore s, List<AuditEntryProto> entries) {
    return AuditEntriesProto.newBuilder()
        .addAllEntries(entries)
        .setDropped(s.systemLong(DROPPED, 0))
        .setRefusalsCounted(s.systemLong(COUNTED, 0))
        .build();
  }

  private static long timeOf(byte[] entry) {
    try {
      return AuditEntryProto.parseFrom(entry).getTimeMs();
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      return Long.MIN_VALUE; // unreadable: dropped first
    }
  }

  private static long value(NamespaceTxn tx, byte[] key, long def) {
    byte[] v = tx.systemValue(key);
    return v == null ? def : Keys.id(v);
  }

  private static void add(NamespaceTxn tx, byte[] key, long n) {
    if (n > 0) {
      tx.putSystem(key, Keys.id(value(tx, key, 0) + n));
    }
  }
}
