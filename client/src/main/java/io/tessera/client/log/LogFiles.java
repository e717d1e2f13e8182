package io.tessera.client.log;

import io.tessera.client.internal.FileTarget;
import io.tessera.client.internal.MetaClient;
import io.tessera.client.internal.StripedIo;
import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.LogChangeRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import java.util.concurrent.CompletableFuture;

/**
 * What a client's log files share: the meta group they commit to, the striped I/O their logs go
 * through, and how a log (a hidden striped file) is opened by its inode number.
 */
public final class LogFiles {
  final MetaClient meta;
  final StripedIo io;
  private final FileTarget.Renewer renewer;

  /** Data stripes of one writer in flight at once (memory: this many stripes per writer). */
  final int stripesInFlight;

  /** Whether the last writer to close flattens the index. */
  final boolean flattenOnClose;

  public LogFiles(
      MetaClient meta,
      StripedIo io,
      FileTarget.Renewer renewer,
      int stripesInFlight,
      boolean flattenOnClose) {
    this.meta = meta;
    this.io = io;
    this.renewer = renewer;
    this.stripesInFlight = Math.max(1, stripesInFlight);
    this.flattenOnClose = flattenOnClose;
  }

  /** The same, committing through {@code other} (a client acting for another user). */
  public LogFiles with(MetaClient other) {
    return new LogFiles(other, io, renewer, stripesInFlight, flattenOnClose);
  }

  /**
   * A log of a log file, by its inode number: live, or as the snapshot at {@code snapshotRoot}
   * ("/.snapshots/NAME", null for the live file) holds it, with its access token.
   */
  CompletableFuture<FileTarget> part(long partId, String snapshotRoot) {
    GetAttrRequestProto.Builder g = GetAttrRequestProto.newBuilder().setFileId(partId);
    if (snapshotRoot != null) {
      g.setPath(snapshotRoot);
    }
    return meta.call(MetaRequestProto.newBuilder().setGetAttr(g))
        .thenApply(
            r ->
                FileTarget.of(
                    r, snapshotRoot == null ? "/" : snapshotRoot + "/" + partId, renewer));
  }

  CompletableFuture<MetaResponseProto> change(LogChangeRequestProto.Builder change) {
    return meta.call(MetaRequestProto.newBuilder().setLogChange(change));
  }
}
