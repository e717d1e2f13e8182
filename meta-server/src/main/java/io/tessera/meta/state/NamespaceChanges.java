package io.tessera.meta.state;

import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaRequestProto.OpCase;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.Map;

/**
 * Every client change to the namespace, one line each: a new change is its message in meta.proto,
 * its {@link NamespaceOp} class and its line here.
 */
public final class NamespaceChanges {
  private static final Map<OpCase, NamespaceOp> OPS =
      Map.ofEntries(
          Map.entry(OpCase.MKDIR, new MkdirOp()),
          Map.entry(OpCase.CREATE, new CreateOp()),
          Map.entry(OpCase.SET_ATTR, new SetAttrOp()),
          Map.entry(OpCase.RENAME, new RenameOp()),
          Map.entry(OpCase.REMOVE, new RemoveOp()),
          Map.entry(OpCase.LOG_CHANGE, new LogChangeOp()),
          Map.entry(OpCase.QOS_SET, new QosSettingsOp()),
          Map.entry(OpCase.CONSOLE_TOKEN_SET, new ConsoleTokenOp()),
          Map.entry(OpCase.AUDIT_APPEND, new AuditAppendOp()),
          Map.entry(OpCase.CREDENTIALS_REGISTER, new CredentialRegisterOp()),
          Map.entry(OpCase.CREDENTIALS_REVOKE, new CredentialRevokeOp()));

  private NamespaceChanges() {}

  /** Applies a logged client change; refusals become replies. */
  public static MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    NamespaceOp op = OPS.get(req.getOpCase());
    if (op == null) {
      return Replies.error(
          StatusProto.INVALID_ARGUMENT, req.getOpCase() + " is not a namespace change");
    }
    try {
      return tx.atomically(() -> op.apply(tx, req, now));
    } catch (NamespaceException e) {
      return Replies.error(e.status(), e.getMessage());
    }
  }

  /** Whether a request changes the namespace (and so must go through the log). */
  public static boolean isChange(MetaRequestProto req) {
    return OPS.containsKey(req.getOpCase()) || req.getOpCase() == OpCase.SNAPSHOT_DELETE;
  }

  /**
   * On the leader: the request as it will be logged (see {@link NamespaceOp#prepare}).
   *
   * @throws NamespaceException when the change is refused: it writes inside /.snapshots, or the
   *     leader cannot prepare it
   */
  public static MetaRequestProto prepare(MetaRequestProto req, NamespaceOp.Leader leader) {
    NamespaceOp op = OPS.get(req.getOpCase());
    if (op == null) {
      return req;
    }
    for (String p : op.paths(req)) {
      if (PathResolver.isSnapshotPath(p)) {
        throw new NamespaceException(
            StatusProto.READ_ONLY,
            p
                + " is inside a snapshot, and snapshots are read-only"
                + " (tessera snapshot restore brings files back)");
      }
    }
    return op.prepare(req, leader);
  }
}
