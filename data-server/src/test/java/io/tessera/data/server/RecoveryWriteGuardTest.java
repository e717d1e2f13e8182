package io.tessera.data.server;

import static io.tessera.data.server.AloneDataServer.call;
import static io.tessera.data.server.AloneDataServer.pool;
import static io.tessera.data.server.AloneDataServer.read;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.LockReadRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.SnapshotGateRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.RpcClientPool;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebuild copies a small file onto its recovering server under a file-wide lock it keeps. A meta
 * leader deposed mid-copy (paused, partitioned) may still send its last copy after the next
 * leader's coordinator took the lock over and copied the file again from newer data: that late copy
 * must not land, or the rebuilt server would hold a stale unit the next coordinator has already
 * declared current.
 */
class RecoveryWriteGuardTest {
  static final long FILE = 7;
  static final ShardRangeProto UNIT =
      ShardRangeProto.newBuilder()
          .setFileId(FILE)
          .setStripe(0)
          .setUnit(2)
          .setLength(4096)
          .setCoversUnit(true)
          .build();

  @TempDir Path dir;
  DataServer server;
  RpcClientPool pool;
  String at;

  @BeforeEach
  void start() throws Exception {
    server = AloneDataServer.start(dir);
    pool = pool();
    at = server.address();
    openEpoch(pool, at);
  }

  @AfterEach
  void stop() throws Exception {
    pool.close();
    server.close();
  }

  @Test
  void aDeposedCoordinatorsLateCopyDoesNotOverwriteWhatTheNextCoordinatorCopied() throws Exception {
    CallerProto deposed = coordinator();
    CallerProto next = coordinator();
    StripeLockProto deposedLock = fileLock(1);
    StripeLockProto nextLock = fileLock(1);
    assertThat(lock(pool, at, deposed, deposedLock).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(lock(pool, at, next, nextLock).getStatus())
        .as("the next coordinator takes the file over")
        .isEqualTo(StatusProto.OK);
    byte[] fresh = filled((byte) 'n');
    assertThat(copy(pool, at, next, nextLock, fresh).getStatus()).isEqualTo(StatusProto.OK);

    DataResponseProto late = copy(pool, at, deposed, deposedLock, filled((byte) 'o'));

    assertThat(late.getStatus()).isEqualTo(StatusProto.LOCK_LOST);
    assertThat(late.getMessage()).contains("nothing was stored");
    assertThat(read(pool, at, UNIT)).as("the unit the next coordinator copied").isEqualTo(fresh);
  }

  @Test
  void aCopyUnderALockItKeepsLeavesTheLockHeldForTheNextChunk() throws Exception {
    CallerProto coordinator = coordinator();
    StripeLockProto fileLock = fileLock(1);
    assertThat(lock(pool, at, coordinator, fileLock).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(copy(pool, at, coordinator, fileLock, filled((byte) 'a')).getStatus())
        .isEqualTo(StatusProto.OK);
    byte[] second = filled((byte) 'b');
    assertThat(copy(pool, at, coordinator, fileLock, second).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(read(pool, at, UNIT)).isEqualTo(second);
    DataResponseProto writer =
        call(
            pool,
            at,
            DataRequestProto.newBuilder()
                .setLockRead(
                    LockReadRequestProto.newBuilder()
                        .setLock(
                            StripeLockProto.newBuilder()
                                .setFileId(FILE)
                                .setStripeCount(1)
                                .setOperation(9)
                                .setLeaseMs(5000)))
                .build(),
            null);
    assertThat(writer.getStatus())
        .as("a writer still waits for the coordinator's lock")
        .isEqualTo(StatusProto.BUSY);

    DataResponseProto both =
        call(
            pool,
            at,
            DataRequestProto.newBuilder()
                .setCaller(coordinator)
                .setRecovery(true)
                .setWrite(
                    WriteShardsRequestProto.newBuilder()
                        .addRanges(UNIT)
                        .setGuard(fileLock)
                        .setUnlock(fileLock))
                .build(),
            second);
    assertThat(both.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
    assertThat(both.getMessage()).contains("not both");
  }

  private static void openEpoch(RpcClientPool pool, String at) throws Exception {
    assertThat(
            call(
                    pool,
                    at,
                    DataRequestProto.newBuilder()
                        .setSnapshotGate(
                            SnapshotGateRequestProto.newBuilder()
                                .setStep(SnapshotGateRequestProto.Step.COMMIT)
                                .setEpoch(0)
                                .setNewEpoch(1))
                        .build(),
                    null)
                .getStatus())
        .isEqualTo(StatusProto.OK);
  }

  private static CallerProto coordinator() {
    ByteString id = RecoveryIdentity.newClientId();
    return CallerProto.newBuilder().setClientId(id).setAppId("tessera-recovery").build();
  }

  /** A rebuild's file-wide lock, as a coordinator takes it. */
  private static StripeLockProto fileLock(long operation) {
    return StripeLockProto.newBuilder()
        .setFileId(FILE)
        .setFirstStripe(0)
        .setStripeCount(1 << 20)
        .setOperation(operation)
        .setLeaseMs(20_000)
        .setCopyOnly(true)
        .build();
  }

  private static DataResponseProto lock(
      RpcClientPool pool, String at, CallerProto who, StripeLockProto lock) throws Exception {
    return call(
        pool,
        at,
        DataRequestProto.newBuilder()
            .setCaller(who)
            .setRecovery(true)
            .setLockRead(LockReadRequestProto.newBuilder().setLock(lock))
            .build(),
        null);
  }

  private static DataResponseProto copy(
      RpcClientPool pool, String at, CallerProto who, StripeLockProto held, byte[] unit)
      throws Exception {
    return call(
        pool,
        at,
        DataRequestProto.newBuilder()
            .setCaller(who)
            .setRecovery(true)
            .setWrite(
                WriteShardsRequestProto.newBuilder()
                    .addRanges(UNIT)
                    .setWholeStripes(true)
                    .setGuard(held))
            .build(),
        unit);
  }

  private static byte[] filled(byte b) {
    byte[] unit = new byte[4096];
    Arrays.fill(unit, b);
    return unit;
  }
}
