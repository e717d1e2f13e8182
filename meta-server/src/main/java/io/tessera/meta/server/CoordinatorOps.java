package io.tessera.meta.server;

import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaRequestProto.OpCase;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.meta.recovery.RecoveryCoordinator;
import io.tessera.meta.regions.RegionHome;
import io.tessera.meta.snapshot.SnapshotCoordinator;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The meta requests a leader-side coordinator serves (several log entries, data-server calls)
 * rather than one namespace change or read: one registration line each. Namespace changes are
 * registered in {@code NamespaceChanges}, replicated changes in {@code ReplicatedChanges}.
 */
final class CoordinatorOps {
  /** Serves one request on the leader. */
  interface Op {
    CompletableFuture<MetaResponseProto> serve(MetaRequestProto req);
  }

  private final Map<OpCase, Op> ops = new EnumMap<>(OpCase.class);

  CoordinatorOps(
      SnapshotCoordinator snapshots,
      RecoveryCoordinator recovery,
      ServerRetirement retirement,
      RegionHome regions) {
    ops.put(
        OpCase.SNAPSHOT_CREATE,
        req ->
            snapshots.create(req.getSnapshotCreate().getName(), req.getCaller(), req.getCallId()));
    ops.put(
        OpCase.REPAIR_STRIPES,
        req ->
            recovery.repairStripes(
                req.getRepairStripes().getFileId(), req.getRepairStripes().getStripesList()));
    ops.put(OpCase.DECOMMISSION, retirement::serve);
    ops.put(OpCase.REGION, regions::serve);
  }

  /** The coordinator serving this kind of request, or null. */
  Op get(OpCase op) {
    return ops.get(op);
  }
}
