package io.tessera.meta.state;

import io.tessera.common.proto.CreateRequestProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import java.util.List;

/**
 * One kind of client change to the namespace, whole: what the leader resolves before the change is
 * logged, and the change every replica applies from the log. {@link NamespaceChanges} registers
 * them, one line each.
 */
public interface NamespaceOp {
  /** What the leader knows that a change may need before it is logged (placement of new files). */
  interface Leader {
    /** The create with its layout policy and servers chosen. */
    CreateRequestProto placed(CreateRequestProto create);

    /**
     * The layout a file created at {@code path} would inherit: the nearest directory default above
     * it, else the cluster's.
     */
    LayoutPolicyProto inheritedAt(String path);

    /** Refuses a directory default layout no file could be created with on this cluster. */
    void checkFits(LayoutPolicyProto defaultLayout);
  }

  /** The paths the change writes (refused inside /.snapshots). */
  List<String> paths(MetaRequestProto req);

  /** On the leader, before logging: the request as it will be logged. */
  default MetaRequestProto prepare(MetaRequestProto req, Leader leader) {
    return req;
  }

  /** The change, applied by every replica from the log, inside one namespace transaction. */
  MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now);
}
