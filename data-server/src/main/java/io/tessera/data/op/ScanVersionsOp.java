package io.tessera.data.op;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.ScanVersionsRequestProto;
import io.tessera.common.proto.ScanVersionsResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcReply;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.store.ShardStore;
import io.tessera.data.store.VersionReport;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * SCAN_VERSIONS: files written between two epochs (snapshot diff) and bytes only each snapshot
 * holds.
 */
final class ScanVersionsOp implements DataOp {
  private final ShardStore store;
  private final StripeLockTable locks;

  ScanVersionsOp(ShardStore store, StripeLockTable locks) {
    this.store = store;
    this.locks = locks;
  }

  /**
   * A diff up to a snapshot must see the writes it holds that are still landing (up to the live
   * epoch, writers keep coming: there is nothing whole to wait for).
   */
  @Override
  public CompletableFuture<Void> waitsFor(DataRequestProto req) {
    ScanVersionsRequestProto sv = req.getScanVersions();
    return !sv.getWritten() || sv.getWrittenUpTo() >= store.epoch()
        ? null
        : SnapshotLanding.bounded(locks.whenAllLanded(sv.getWrittenUpTo()), sv.getWrittenUpTo());
  }

  @Override
  public RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    ScanVersionsRequestProto sv = req.getScanVersions();
    VersionReport report =
        store.scanVersions(
            sv.getWritten() ? sv.getWrittenAfter() : Long.MAX_VALUE,
            sv.getWrittenUpTo(),
            sv.getUsage());
    ScanVersionsResponseProto.Builder out =
        ScanVersionsResponseProto.newBuilder().addAllWrittenFiles(report.writtenFiles());
    report
        .exclusiveBytes()
        .forEach((epoch, bytes) -> out.addEpochs(epoch).addExclusiveBytes(bytes));
    return RpcReply.of(
        DataResponseProto.newBuilder().setStatus(StatusProto.OK).setVersions(out).build());
  }
}
