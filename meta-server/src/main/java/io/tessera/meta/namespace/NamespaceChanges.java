package io.tessera.meta.namespace;

import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

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
      case MKDIR, CREATE, SET_ATTR, RENAME, REMOVE, SNAPSHOT_DELETE -> true;
      default -> false;
    };
  }

  /** The refusal of a change to anything under /.snapshots, or null when the change may go ahead. */
  public static NamespaceException readOnlyRefusal(MetaRequestProto req) {
    List<String> paths = switch (req.getOpCase()) {
      case MKDIR -> List.of(req.getMkdir().getPath());
      case CREATE -> List.of(req.getCreate().getPath());
      case SET_ATTR -> List.of(req.getSetAttr().getPath());
      case RENAME -> List.of(req.getRename().getSource(), req.getRename().getTarget());
      case REMOVE -> List.of(req.getRemove().getPath());
      default -> List.of();
    };
    for (String p : paths) {
      if (PathResolver.isSnapshotPath(p)) {
        return new NamespaceException(StatusProto.READ_ONLY, p + " is inside a snapshot, and snapshots are read-only"
            + " (tessera snapshot restore brings files back)");
      }
    }
    return null;
  }
}
