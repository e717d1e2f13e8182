package io.tessera.meta.namespace;

import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;

/** Routes a logged client change to its operation and turns refusals into replies. */
public final class NamespaceChanges {
  private NamespaceChanges() {}

  public static MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    try {
      return tx.atomically(() -> switch (req.getOpCase()) {
        case MKDIR -> MkdirOp.apply(tx, req.getMkdir(), now);
        case CREATE -> CreateOp.apply(tx, req.getCreate(), now);
        case SET_ATTR -> SetAttrOp.apply(tx, req.getSetAttr(), now);
        case RENAME -> RenameOp.apply(tx, req.getRename(), now);
        case REMOVE -> RemoveOp.apply(tx, req.getRemove(), now);
        default -> Replies.error(StatusProto.INVALID_ARGUMENT, req.getOpCase() + " is not a namespace change");
      });
    } catch (NamespaceException e) {
      return Replies.error(e.status(), e.getMessage());
    }
  }

  /** Whether a request changes the namespace (and so must go through the log). */
  public static boolean isChange(MetaRequestProto req) {
    return switch (req.getOpCase()) {
      case MKDIR, CREATE, SET_ATTR, RENAME, REMOVE -> true;
      default -> false;
    };
  }
}
