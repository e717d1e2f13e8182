package io.tessera.data.server;

import static io.tessera.data.server.AloneDataServer.call;
import static io.tessera.data.server.AloneDataServer.pool;
import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.proto.LayoutFenceRequestProto;
import io.tessera.common.proto.LockReadRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.SnapshotGateRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.proto.UnlockRequestProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.HostPort;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data server fed garbage keeps serving everyone else, and answers bad requests with a status.
 */
class DataServerBadInputTest {
  @TempDir Path dir;

  @Test
  void randomBytesTruncatedFramesAndLyingLengthsDoNotHurtOtherClients() throws Exception {
    try (DataServer server = AloneDataServer.start(dir);
        RpcClientPool pool = pool()) {
      HostPort addr = HostPort.parse(server.address());
      byte[] unit = new byte[4096];
      new Random(1).nextBytes(unit);
      ShardRangeProto range =
          ShardRangeProto.newBuilder()
              .setFileId(1)
              .setStripe(0)
              .setUnit(0)
              .setLength(4096)
              .setCoversUnit(true)
              .build();
      DataRequestProto write =
          DataRequestProto.newBuilder()
              .setWrite(WriteShardsRequestProto.newBuilder().addRanges(range))
              .build();
      DataResponseProto early = call(pool, server.address(), write, unit);
      assertThat(early.getStatus())
          .as("no meta group told it the epoch yet")
          .isEqualTo(StatusProto.UNAVAILABLE);
      assertThat(early.getMessage()).contains("epoch");
      // what the meta leader sends when a snapshot commits: the server learns the epoch
      assertThat(
              call(
                      pool,
                      server.address(),
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
      assertThat(call(pool, server.address(), write, unit).getStatus()).isEqualTo(StatusProto.OK);

      Random rnd = new Random(7);
      for (int i = 0; i < 50; i++) {
        try (Socket s = new Socket(addr.host(), addr.port());
            OutputStream out = s.getOutputStream()) {
          byte[] junk = new byte[rnd.nextInt(3000) + 1];
          rnd.nextBytes(junk);
          if (i % 5 == 0) {
            // a plausible frame header promising more than is ever sent
            ByteBuffer.wrap(junk).putInt(0, Math.min(junk.length + 1000, 1 << 20));
          }
          out.write(junk);
          out.flush();
        }
      }
      // a well-formed frame whose header is not a DataRequestProto, and one that lies about its
      // payload
      Frame garbledReply =
          pool.call(server.address(), Service.DATA, new byte[] {(byte) 0xff, (byte) 0xff, 1}, null)
              .get();
      garbledReply.release();
      DataResponseProto garbled = DataResponseProto.parseFrom(garbledReply.header());
      assertThat(garbled.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      DataResponseProto lying =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder()
                  .setWrite(
                      WriteShardsRequestProto.newBuilder()
                          .addRanges(range.toBuilder().setLength(9999)))
                  .build(),
              unit);
      assertThat(lying.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      assertThat(lying.getMessage()).contains("payload");
      DataResponseProto outside =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder()
                  .setRead(
                      ReadShardsRequestProto.newBuilder()
                          .addRanges(range.toBuilder().setOffset(-1)))
                  .build(),
              null);
      assertThat(outside.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      DataResponseProto emptyLock =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder()
                  .setLockRead(
                      LockReadRequestProto.newBuilder()
                          .setLock(StripeLockProto.newBuilder().setFileId(1).setStripeCount(0)))
                  .build(),
              null);
      assertThat(emptyLock.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      assertThat(emptyLock.getMessage()).contains("a lock must cover");
      DataResponseProto hugeLock =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder()
                  .setUnlock(
                      UnlockRequestProto.newBuilder()
                          .setLock(
                              StripeLockProto.newBuilder()
                                  .setFileId(1)
                                  .setFirstStripe(Long.MAX_VALUE)
                                  .setStripeCount(-1)))
                  .build(),
              null);
      assertThat(hugeLock.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      DeleteFileRequestProto.Builder manyFiles = DeleteFileRequestProto.newBuilder().setFileId(1);
      for (long f = 2; f <= 100_000; f++) {
        manyFiles.addMoreFileIds(f);
      }
      DataResponseProto tooMany =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder().setDeleteFile(manyFiles).build(),
              null);
      assertThat(tooMany.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      assertThat(tooMany.getMessage()).contains("at most 1024");

      Frame reply =
          pool.call(
                  server.address(),
                  Service.DATA,
                  DataRequestProto.newBuilder()
                      .setRead(ReadShardsRequestProto.newBuilder().addRanges(range))
                      .build()
                      .toByteArray(),
                  null)
              .get();
      assertThat(DataResponseProto.parseFrom(reply.header()).getStatus()).isEqualTo(StatusProto.OK);
      byte[] got = new byte[4096];
      reply.payload().readBytes(got);
      reply.release();
      assertThat(got).as("data written before the garbage is intact").isEqualTo(unit);

      // recovery moved file 1's units: a client still planning with the old layout is told to
      // re-read it
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setLayoutFence(
                              LayoutFenceRequestProto.newBuilder().setFileId(1).setGeneration(2))
                          .build(),
                      null)
                  .getStatus())
          .isEqualTo(StatusProto.OK);
      DataResponseProto stale =
          call(pool, server.address(), write.toBuilder().setLayoutGeneration(1).build(), unit);
      assertThat(stale.getStatus()).isEqualTo(StatusProto.STALE_LAYOUT);
      assertThat(stale.getMessage()).contains("re-read its layout");
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setLockRead(
                              LockReadRequestProto.newBuilder()
                                  .setLock(
                                      StripeLockProto.newBuilder()
                                          .setFileId(1)
                                          .setStripeCount(1)
                                          .setLeaseMs(1000)))
                          .build(),
                      null)
                  .getStatus())
          .as("a lock planned with the old layout")
          .isEqualTo(StatusProto.STALE_LAYOUT);
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setRead(
                              ReadShardsRequestProto.newBuilder()
                                  .addRanges(range)
                                  .setAtSnapshot(true)
                                  .setSnapshotEpoch(5))
                          .build(),
                      null)
                  .getStatus())
          .as("a snapshot keeps the layout it recorded")
          .isEqualTo(StatusProto.OK);
      assertThat(
              call(pool, server.address(), write.toBuilder().setLayoutGeneration(2).build(), unit)
                  .getStatus())
          .isEqualTo(StatusProto.OK);
    }
  }

  /**
   * A truncate holds the locks of the stripes it cuts, so a rebuild or a writer of those stripes is
   * never interleaved with it: one whose lock is not held here cuts nothing; one whose lock is cuts
   * and releases it in the same step, after which another owner may lock the stripes.
   */
  @Test
  void aTruncateUnderALockItDoesNotHoldCutsNothingAndOneUnderItsLockFreesIt() throws Exception {
    try (DataServer server = AloneDataServer.start(dir);
        RpcClientPool pool = pool()) {
      assertThat(
              call(
                      pool,
                      server.address(),
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
      byte[] unit = new byte[4096];
      new Random(3).nextBytes(unit);
      ShardRangeProto range =
          ShardRangeProto.newBuilder()
              .setFileId(3)
              .setStripe(1)
              .setUnit(0)
              .setLength(4096)
              .setCoversUnit(true)
              .build();
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setWrite(WriteShardsRequestProto.newBuilder().addRanges(range))
                          .build(),
                      unit)
                  .getStatus())
          .isEqualTo(StatusProto.OK);
      StripeLockProto lock =
          StripeLockProto.newBuilder()
              .setFileId(3)
              .setFirstStripe(1)
              .setStripeCount(1 << 20)
              .setOperation(9)
              .setLeaseMs(5000)
              .build();
      DataRequestProto cut =
          DataRequestProto.newBuilder()
              .setTruncate(
                  TruncateFileRequestProto.newBuilder()
                      .setFileId(3)
                      .setStripe(1)
                      .addKeepLengths(0)
                      .setUnlock(lock))
              .build();
      DataResponseProto notHeld = call(pool, server.address(), cut, null);
      assertThat(notHeld.getStatus()).isEqualTo(StatusProto.LOCK_LOST);
      assertThat(notHeld.getMessage()).contains("nothing was cut");
      DataRequestProto read =
          DataRequestProto.newBuilder()
              .setRead(ReadShardsRequestProto.newBuilder().addRanges(range).setProbe(true))
              .build();
      assertThat(call(pool, server.address(), read, null).getRead().getStates(0))
          .isEqualTo(ShardStateProto.SHARD_STORED);

      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setLockRead(LockReadRequestProto.newBuilder().setLock(lock))
                          .build(),
                      null)
                  .getStatus())
          .isEqualTo(StatusProto.OK);
      StripeLockProto writer =
          StripeLockProto.newBuilder()
              .setFileId(3)
              .setFirstStripe(2)
              .setStripeCount(1)
              .setOperation(10)
              .setLeaseMs(5000)
              .build();
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setLockRead(LockReadRequestProto.newBuilder().setLock(writer))
                          .build(),
                      null)
                  .getStatus())
          .as("a writer of a stripe being cut waits")
          .isEqualTo(StatusProto.BUSY);
      assertThat(call(pool, server.address(), cut, null).getStatus()).isEqualTo(StatusProto.OK);
      assertThat(call(pool, server.address(), read, null).getRead().getStates(0))
          .isEqualTo(ShardStateProto.SHARD_ABSENT);
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setLockRead(LockReadRequestProto.newBuilder().setLock(writer))
                          .build(),
                      null)
                  .getStatus())
          .as("the cut released its lock")
          .isEqualTo(StatusProto.OK);
    }
  }

  @Test
  void aPhaseTwoStampedOutsideItsLocksEpochIsRefusedWithTheReasonAndStoresNothing()
      throws Exception {
    try (DataServer server = AloneDataServer.start(dir);
        RpcClientPool pool = pool()) {
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setSnapshotGate(
                              SnapshotGateRequestProto.newBuilder()
                                  .setStep(SnapshotGateRequestProto.Step.COMMIT)
                                  .setEpoch(2)
                                  .setNewEpoch(3))
                          .build(),
                      null)
                  .getStatus())
          .isEqualTo(StatusProto.OK);
      StripeLockProto lock =
          StripeLockProto.newBuilder()
              .setFileId(2)
              .setStripeCount(1)
              .setOperation(1)
              .setLeaseMs(5000)
              .build();
      DataResponseProto granted =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder()
                  .setLockRead(LockReadRequestProto.newBuilder().setLock(lock))
                  .build(),
              null);
      assertThat(granted.getStatus()).isEqualTo(StatusProto.OK);
      assertThat(granted.getLockEpoch()).as("the epoch the lock was granted at").isEqualTo(3);
      byte[] unit = new byte[4096];
      ShardRangeProto range =
          ShardRangeProto.newBuilder()
              .setFileId(2)
              .setStripe(0)
              .setUnit(0)
              .setLength(4096)
              .setCoversUnit(true)
              .build();
      WriteShardsRequestProto.Builder phase2 =
          WriteShardsRequestProto.newBuilder().addRanges(range).setUnlock(lock);
      DataResponseProto below =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder().setWrite(phase2.clone().setEpoch(2)).build(),
              unit);
      assertThat(below.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      assertThat(below.getMessage()).contains("at least its locks'");
      DataResponseProto farAhead =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder().setWrite(phase2.clone().setEpoch(9)).build(),
              unit);
      assertThat(farAhead.getStatus()).isEqualTo(StatusProto.UNAVAILABLE);
      assertThat(farAhead.getMessage()).contains("catches up");
      DataResponseProto unlocked =
          call(
              pool,
              server.address(),
              DataRequestProto.newBuilder()
                  .setWrite(WriteShardsRequestProto.newBuilder().addRanges(range).setEpoch(3))
                  .build(),
              unit);
      assertThat(unlocked.getStatus()).isEqualTo(StatusProto.INVALID_ARGUMENT);
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder()
                          .setRead(ReadShardsRequestProto.newBuilder().addRanges(range))
                          .build(),
                      null)
                  .getRead()
                  .getStates(0))
          .as("nothing was stored")
          .isEqualTo(ShardStateProto.SHARD_ABSENT);
      assertThat(
              call(
                      pool,
                      server.address(),
                      DataRequestProto.newBuilder().setWrite(phase2.clone().setEpoch(4)).build(),
                      unit)
                  .getStatus())
          .as("one past the server's epoch: a COMMIT on its way")
          .isEqualTo(StatusProto.OK);
    }
  }
}
