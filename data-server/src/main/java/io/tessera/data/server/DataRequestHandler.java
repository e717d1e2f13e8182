package io.tessera.data.server;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.platform.SpaceGuard;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.status.TesseraException;
import io.tessera.data.op.DataOp;
import io.tessera.data.op.Replies;
import io.tessera.data.recovery.CorruptionReport;
import io.tessera.data.snapshot.WriteGate;
import io.tessera.data.store.CorruptShardException;
import io.tessera.data.store.ShardStore;
import io.tessera.data.store.UnrecordedSkipException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves data.proto: parses each request, checks who may make it ({@link AccessGate}), admits it
 * (layout fences, disk space, the snapshot write gate) as its {@link DataOp} asks, runs it off the
 * event loop and maps failures to statuses.
 */
final class DataRequestHandler implements RpcService {
  private static final Logger LOG = LoggerFactory.getLogger(DataRequestHandler.class);

  private final Map<DataRequestProto.OpCase, DataOp> ops;
  private final ShardStore store;
  private final WriteGate gate;
  private final CorruptionReport corruption;
  private final SpaceGuard space;
  private final ExecutorService workers;
  private final ClientLoad load;
  private final DataMetrics metrics;
  private final AccessGate access;
  private final DeviceCap device;

  DataRequestHandler(
      AccessGate access,
      Map<DataRequestProto.OpCase, DataOp> ops,
      ShardStore store,
      WriteGate gate,
      CorruptionReport corruption,
      SpaceGuard space,
      ExecutorService workers,
      ClientLoad load,
      DataMetrics metrics,
      DeviceCap device) {
    this.device = device;
    this.access = access;
    this.ops = ops;
    this.store = store;
    this.gate = gate;
    this.corruption = corruption;
    this.space = space;
    this.workers = workers;
    this.load = load;
    this.metrics = metrics;
  }

  @Override
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    long start = System.nanoTime();
    DataRequestProto req;
    try {
      req = DataRequestProto.parseFrom(call.header());
    } catch (InvalidProtocolBufferException e) {
      return refuse(
          call,
          StatusProto.INVALID_ARGUMENT,
          "request header is not a data.proto DataRequestProto: " + e.getMessage());
    }
    DataOp op = ops.get(req.getOpCase());
    if (op == null) {
      return refuse(call, StatusProto.INVALID_ARGUMENT, "request names no operation");
    }
    if (!access.holdsKeys() && access.needsToken(call.identity(), req)) {
      // a server that has just started learns the access keys at its first heartbeat: the
      // request waits for them rather than finding the server unavailable
      return access
          .ready(KEYS_WAIT)
          .handle((v, e) -> (Void) null)
          .thenCompose(v -> handleAuthorized(call, req, op, start));
    }
    return handleAuthorized(call, req, op, start);
  }

  /** How long a request waits for a just-started server to learn the access keys. */
  private static final Duration KEYS_WAIT = Duration.ofSeconds(10);

  private CompletableFuture<RpcReply> handleAuthorized(
      RpcCall call, DataRequestProto req, DataOp op, long start) {
    AccessGate.Refusal refused = access.check(call.identity(), req);
    if (refused != null) {
      metrics.refused(refused.status().name().toLowerCase(java.util.Locale.ROOT));
      return refuse(call, refused.status(), refused.message());
    }
    CompletableFuture<RpcReply> answered = op.answerWithoutAdmission(req);
    if (answered != null) {
      call.payload().release();
      return answered;
    }
    long readBytes = op.readBytes(req);
    metrics.transfer(readBytes, call.payload().readableBytes());
    if (!req.getRecovery()) {
      load.record(call.payload().readableBytes() + readBytes);
    }
    DataRequestProto.OpCase opCase = req.getOpCase();
    return admitAndRun(op, req, call)
        .whenComplete((reply, err) -> metrics.requests.record(opCase, start, err == null));
  }

  private CompletableFuture<RpcReply> admitAndRun(DataOp op, DataRequestProto req, RpcCall call) {
    String stale;
    try {
      stale = staleLayout(op.touches(req), req.getLayoutGeneration(), req.getRecovery());
    } catch (IOException e) {
      return refuse(call, StatusProto.INTERNAL, e.getMessage());
    }
    if (stale != null) {
      metrics.refused("stale_layout");
      return refuse(call, StatusProto.STALE_LAYOUT, stale);
    }
    boolean needsSpace = op.needsSpace(req);
    long reserved = needsSpace ? call.payload().readableBytes() : 0;
    String full = needsSpace ? space.reserve(reserved) : null;
    if (full != null) {
      metrics.refused("no_space");
      return refuse(call, StatusProto.NO_SPACE, full);
    }
    DataOp.Passage passage = op.passage(req);
    CompletableFuture<Void> admitted = op.waitsFor(req);
    if (admitted == null) {
      admitted =
          switch (passage) {
            case FREE -> CompletableFuture.completedFuture(null);
            case UNLOCKED_CHANGE -> gate.enter();
            case LOCKED_CHANGE -> gate.enterWithLock(false);
            case STAMPED_CHANGE -> gate.enterWithLock(true);
          };
    }
    boolean counted =
        passage == DataOp.Passage.UNLOCKED_CHANGE || passage == DataOp.Passage.LOCKED_CHANGE;
    return admitted
        .handle((v, refused) -> refused)
        .thenApplyAsync(
            refused -> {
              if (refused != null) {
                metrics.refused("snapshot_gate");
              }
              try {
                return refused != null
                    ? Replies.error(StatusProto.UNAVAILABLE, Failures.cause(refused).getMessage())
                    : execute(op, req, call);
              } finally {
                call.payload().release();
                space.release(reserved);
                if (refused == null && counted) {
                  gate.exit();
                }
              }
            },
            workers);
  }

  private static CompletableFuture<RpcReply> refuse(
      RpcCall call, StatusProto status, String message) {
    call.payload().release();
    return CompletableFuture.completedFuture(Replies.error(status, message));
  }

  private RpcReply execute(DataOp op, DataRequestProto req, RpcCall call) {
    device.occupy(call.payload().readableBytes() + op.readBytes(req));
    try {
      return op.execute(req, call.payload());
    } catch (IllegalArgumentException e) {
      return Replies.error(StatusProto.INVALID_ARGUMENT, e.getMessage());
    } catch (CorruptShardException e) {
      corruption.found(e.shard().fileId(), e.getMessage());
      return Replies.error(StatusProto.CORRUPT, e.getMessage());
    } catch (UnrecordedSkipException e) {
      return Replies.error(StatusProto.RECHECK, e.getMessage());
    } catch (IOException e) {
      LOG.warn("Storage error: {}", e.getMessage());
      return Replies.error(StatusProto.INTERNAL, e.getMessage());
    } catch (UncheckedIOException e) {
      LOG.warn("Storage error: {}", e.getCause().getMessage());
      return Replies.error(StatusProto.INTERNAL, e.getCause().getMessage());
    }
  }

  /**
   * Why the request must be planned again with the file's current layout (its shards moved between
   * servers since the caller read it, or the file was deleted here), or null. Recovery is not
   * refused for a deleted file (it may rebuild what a snapshot still sees).
   */
  private String staleLayout(DataOp.Touches touches, long generation, boolean recovery)
      throws IOException {
    long fileId = touches.lockedFile();
    String refusal = fileId < 0 ? null : staleLayout(fileId, generation, recovery);
    long checked = fileId;
    List<ShardRangeProto> ranges = touches.ranges();
    for (int i = 0; i < ranges.size() && refusal == null; i++) {
      long id = ranges.get(i).getFileId();
      if (id != checked) {
        refusal = staleLayout(id, generation, recovery);
        checked = id;
      }
    }
    return refusal;
  }

  private String staleLayout(long fileId, long generation, boolean recovery) throws IOException {
    long floor = store.layoutFloor(fileId);
    if (floor == ShardStore.FILE_DELETED) {
      return recovery
          ? null
          : "file " + fileId + " was deleted: this server holds none of its shards any more";
    }
    if (generation >= floor) {
      return null;
    }
    return "the shards of file "
        + fileId
        + " moved between servers (layout generation "
        + floor
        + "; this request was planned with "
        + generation
        + "): re-read its layout";
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return Replies.error(TesseraException.statusOf(cause), String.valueOf(cause.getMessage()));
  }
}
