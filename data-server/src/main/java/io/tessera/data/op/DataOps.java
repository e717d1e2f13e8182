package io.tessera.data.op;

import io.tessera.common.proto.DataRequestProto.OpCase;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.recovery.CorruptionReport;
import io.tessera.data.recovery.ServingState;
import io.tessera.data.snapshot.SnapshotParticipant;
import io.tessera.data.snapshot.WriteGate;
import io.tessera.data.store.ShardStore;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * Every operation of data.proto, one line each: a new op is its message, its class and a line here.
 */
public final class DataOps {
  private DataOps() {}

  public static Map<OpCase, DataOp> of(
      ShardStore store,
      StripeLockTable locks,
      WriteGate gate,
      SnapshotParticipant snapshots,
      ServingState serving,
      CorruptionReport corruption) {
    ShardReads reads = new ShardReads(store, corruption);
    Map<OpCase, DataOp> ops = new EnumMap<>(OpCase.class);
    ops.put(OpCase.WRITE, new WriteOp(store, locks));
    ops.put(OpCase.READ, new ReadOp(reads, locks, serving));
    ops.put(OpCase.LOCK_READ, new LockReadOp(store, locks, gate, reads));
    ops.put(OpCase.UNLOCK, new UnlockOp(locks));
    ops.put(OpCase.RENEW_LOCK, new RenewLockOp(locks));
    ops.put(OpCase.TRUNCATE, new TruncateOp(store, locks));
    ops.put(OpCase.DELETE_FILE, new DeleteFileOp(store));
    ops.put(OpCase.LAYOUT_FENCE, new LayoutFenceOp(store));
    ops.put(OpCase.SYNC, new SyncOp(store));
    ops.put(OpCase.DIRTY_SCAN, new DirtyScanOp(store));
    ops.put(OpCase.DIRTY_CLEAR, new DirtyClearOp(store));
    ops.put(OpCase.SCAN_VERSIONS, new ScanVersionsOp(store, locks));
    ops.put(OpCase.SNAPSHOT_GATE, new SnapshotGateOp(snapshots, gate));
    return Collections.unmodifiableMap(ops);
  }
}
