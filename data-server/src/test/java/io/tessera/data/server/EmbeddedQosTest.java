package io.tessera.data.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.LockReadRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.RenewLockRequestProto;
import io.tessera.common.proto.SnapshotGateRequestProto;
import io.tessera.common.proto.UnlockRequestProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.qos.node.ScheduledDataService;
import org.junit.jupiter.api.Test;

/**
 * With the scheduler in the data server, what moves data waits its turn, and what frees or
 * coordinates never waits behind it: a write queued behind its own lock's renewal would lose the
 * lock, and a snapshot's gate queued behind writes would hold every writer up.
 */
class EmbeddedQosTest {
  @Test
  void readsWritesAndLockedReadsWaitTheirTurn() {
    for (DataRequestProto r :
        new DataRequestProto[] {
          DataRequestProto.newBuilder()
              .setRead(ReadShardsRequestProto.getDefaultInstance())
              .build(),
          DataRequestProto.newBuilder()
              .setWrite(WriteShardsRequestProto.getDefaultInstance())
              .build(),
          DataRequestProto.newBuilder()
              .setRecovery(true)
              .setLockRead(LockReadRequestProto.getDefaultInstance())
              .build()
        }) {
      assertThat(EmbeddedQos.admission(null, r)).as(r.getOpCase().name()).isNull();
    }
  }

  @Test
  void renewalsUnlocksAndSnapshotGatesPassAtOnce() {
    for (DataRequestProto r :
        new DataRequestProto[] {
          DataRequestProto.newBuilder()
              .setRenewLock(RenewLockRequestProto.getDefaultInstance())
              .build(),
          DataRequestProto.newBuilder().setUnlock(UnlockRequestProto.getDefaultInstance()).build(),
          DataRequestProto.newBuilder()
              .setSnapshotGate(SnapshotGateRequestProto.getDefaultInstance())
              .build()
        }) {
      assertThat(EmbeddedQos.admission(null, r))
          .as(r.getOpCase().name())
          .isEqualTo(ScheduledDataService.Admission.BYPASS);
    }
  }
}
