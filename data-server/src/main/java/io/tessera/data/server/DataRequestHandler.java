package io.tessera.data.server;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ScanVersionsRequestProto;
import io.tessera.common.proto.ScanVersionsResponseProto;
import io.tessera.common.proto.SnapshotGateRequestProto;
import io.tessera.common.proto.DirtyClearRequestProto;
import io.tessera.common.proto.DirtyScanRequestProto;
import io.tessera.common.proto.DirtyScanResponseProto;
import io.tessera.data.lock.StripeLockTable;
import io.tessera.data.recovery.CorruptionReport;
import io.tessera.data.recovery.ServingState;
import io.tessera.data.store.DirtyFile;
import io.tessera.data.store.UnrecordedSkipException;
import io.tessera.data.snapshot.SnapshotParticipant;
import io.tessera.data.snapshot.WriteGate;
import io.tessera.data.store.EpochState;
import io.tessera.data.store.VersionReport;
import io.tessera.data.store.CorruptShardException;
import io.tessera.data.store.ShardId;
import io.tessera.data.store.ShardStore;
import io.tessera.data.store.ShardWrite;
import io.tessera.data.store.WriteBookkeeping;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Serves data.proto: validates each request, then runs it against the shard store off the event loop. */
final class DataRequestHandler implements RpcService {
  private static final Logger LOG = LoggerFactory.getLogger(DataRequestHandler.class);
  /** Upper bound of bytes one read request may ask for (the frame limit bounds writes). */
  static final long MAX_READ_BYTES = 64L << 20;

  /** Most retained snapshots a gate request may name. */
  static final int MAX_RETAINED = 100_000;
  /** Files one delete request may remove (the meta leader's reclaim batches stay below it). */
  static final int MAX_FILES_PER_DELETE = 1024;

  /** Longest a snapshot read waits for writes its snapshot holds to land (a dead writer's). */
  static final Duration LANDING_WAIT = Duration.ofSeconds(10);

  /**
   * How a request passes the write gate: freely, counted while it runs (it takes the epoch
   * current when it lands), or, for a phase 2 that carries its own epoch, uncounted.
   */
  private enum Passage { FREE, UNLOCKED_CHANGE, LOCKED_CHANGE, STAMPED_CHANGE }

  private final ShardStore store;
  private final StripeLockTable locks;
  private final WriteGate gate;
  private final SnapshotParticipant snapshots;
  private final ServingState serving;
  private final CorruptionReport corruption;
  private final SpaceGuard space;
  private final ExecutorService workers;
  private final ClientLoad load;

  DataRequestHandler(ShardStore store, StripeLockTable locks, WriteGate gate, SnapshotParticipant snapshots,
      ServingState serving, CorruptionReport corruption, SpaceGuard space, ExecutorService workers, ClientLoad load) {
    this.load = load;
    this.space = space;
    this.corruption = corruption;
    this.store = store;
    this.serving = serving;
    this.locks = locks;
    this.gate = gate;
    this.snapshots = snapshots;
    this.workers = workers;
  }

  @Override
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    DataRequestProto req;
    try {
      req = DataRequestProto.parseFrom(call.header());
    } catch (InvalidProtocolBufferException e) {
      call.payload().release();
      return CompletableFuture.completedFuture(error(StatusProto.INVALID_ARGUMENT,
          "request header is not a data.proto DataRequestProto: " + e.getMessage()));
    }
    if (req.getOpCase() == DataRequestProto.OpCase.SNAPSHOT_GATE) {
      call.payload().release();
      try {
        return gateStep(req.getSnapshotGate());
      } catch (IllegalArgumentException e) {
        return CompletableFuture.completedFuture(error(StatusProto.INVALID_ARGUMENT, e.getMessage()));
      }
    }
    if (!req.getRecovery() && req.getOpCase() == DataRequestProto.OpCase.READ && serving.recovering()) {
      call.payload().release();
      return CompletableFuture.completedFuture(unavailableUnits(req.getRead().getRangesCount()));
    }
    if (!req.getRecovery()) {
      load.record(clientBytes(req, call.payload().readableBytes()));
    }
    String stale;
    try {
      stale = staleLayout(req);
    } catch (IOException e) {
      call.payload().release();
      return CompletableFuture.completedFuture(error(StatusProto.INTERNAL, e.getMessage()));
    }
    if (stale != null) {
      call.payload().release();
      return CompletableFuture.completedFuture(error(StatusProto.STALE_LAYOUT, stale));
    }
    String full = needsSpace(req) ? space.refusal(call.payload().readableBytes()) : null;
    if (full != null) {
      call.payload().release();
      return CompletableFuture.completedFuture(error(StatusProto.NO_SPACE, full));
    }
    Passage passage = passageOf(req);
    CompletableFuture<Void> admitted = switch (passage) {
      case FREE -> CompletableFuture.completedFuture(null);
      case UNLOCKED_CHANGE -> gate.enter();
      case LOCKED_CHANGE -> gate.enterWithLock(false);
      case STAMPED_CHANGE -> gate.enterWithLock(true);
    };
    if (req.getOpCase() == DataRequestProto.OpCase.READ && req.getRead().getAtSnapshot()) {
      admitted = landed(locks.whenLanded(req.getRead().getRangesList(), req.getRead().getSnapshotEpoch()),
          req.getRead().getSnapshotEpoch());
    } else if (req.getOpCase() == DataRequestProto.OpCase.SCAN_VERSIONS && req.getScanVersions().getWritten()
        && req.getScanVersions().getWrittenUpTo() < store.epoch()) {
      // a diff up to a snapshot must see the writes it holds that are still landing (up to the
      // live epoch, writers keep coming: there is nothing whole to wait for)
      admitted = landed(locks.whenAllLanded(req.getScanVersions().getWrittenUpTo()),
          req.getScanVersions().getWrittenUpTo());
    }
    return admitted.handle((v, refused) -> refused).thenApplyAsync(refused -> {
      if (refused != null) {
        call.payload().release();
        return error(StatusProto.UNAVAILABLE, io.tessera.common.rpc.Failures.cause(refused).getMessage());
      }
      try {
        return execute(req, call.payload());
      } catch (IllegalArgumentException e) {
        return error(StatusProto.INVALID_ARGUMENT, e.getMessage());
      } catch (CorruptShardException e) {
        corruption.found(e.shard().fileId(), e.getMessage());
        return error(StatusProto.CORRUPT, e.getMessage());
      } catch (UnrecordedSkipException e) {
        return error(StatusProto.RECHECK, e.getMessage());
      } catch (IOException e) {
        LOG.warn("Storage error: {}", e.getMessage());
        return error(StatusProto.INTERNAL, e.getMessage());
      } catch (java.io.UncheckedIOException e) {
        LOG.warn("Storage error: {}", e.getCause().getMessage());
        return error(StatusProto.INTERNAL, e.getCause().getMessage());
      } finally {
        call.payload().release();
        if (passage == Passage.UNLOCKED_CHANGE || passage == Passage.LOCKED_CHANGE) {
          gate.exit();
        }
      }
    }, workers);
  }

  /**
   * A recovering server's answer to a client's read: every unit unavailable, so readers decode
   * around it until the shards it missed are rebuilt. It still takes writes and locks, so it
   * does not fall further behind (writers skip it only for files stale on it).
   */
  private static RpcReply unavailableUnits(int ranges) {
    ReadShardsResponseProto.Builder r = ReadShardsResponseProto.newBuilder();
    for (int i = 0; i < Math.min(ranges, 100_000); i++) {
      r.addStates(ShardStateProto.SHARD_UNAVAILABLE).addStoredLengths(0);
    }
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).setRead(r).build());
  }

  /**
   * Why the request must be planned again with the file's current layout (its shards moved
   * between servers since the caller read it, or the file was deleted here), or null. Reads at
   * a snapshot keep the layout the snapshot recorded and are never refused, nor is recovery
   * refused for a deleted file (it may rebuild what a snapshot still sees).
   */
  private String staleLayout(DataRequestProto req) throws IOException {
    List<ShardRangeProto> ranges;
    long fileId;
    switch (req.getOpCase()) {
      case WRITE -> {
        ranges = req.getWrite().getRangesList();
        fileId = req.getWrite().hasUnlock() ? req.getWrite().getUnlock().getFileId() : -1;
      }
      case READ -> {
        ranges = req.getRead().getAtSnapshot() ? List.of() : req.getRead().getRangesList();
        fileId = -1;
      }
      case LOCK_READ -> {
        ranges = List.of();
        fileId = req.getLockRead().getLock().getFileId();
      }
      case TRUNCATE -> {
        ranges = List.of();
        fileId = req.getTruncate().getFileId();
      }
      default -> {
        return null;
      }
    }
    boolean recovery = req.getRecovery();
    String refusal = fileId < 0 ? null : staleLayout(fileId, req.getLayoutGeneration(), recovery);
    long checked = fileId;
    for (int i = 0; i < ranges.size() && refusal == null; i++) {
      long id = ranges.get(i).getFileId();
      if (id != checked) {
        refusal = staleLayout(id, req.getLayoutGeneration(), recovery);
        checked = id;
      }
    }
    return refusal;
  }

  /** The file bytes a client request moves: a write's payload, a read's ranges. */
  private static long clientBytes(DataRequestProto req, long payloadBytes) {
    List<ShardRangeProto> reads = switch (req.getOpCase()) {
      case READ -> req.getRead().getProbe() ? List.of() : req.getRead().getRangesList();
      case LOCK_READ -> req.getLockRead().getReadsList();
      default -> List.of();
    };
    long bytes = payloadBytes;
    for (ShardRangeProto r : reads) {
      bytes += r.getLength();
    }
    return bytes;
  }

  private String staleLayout(long fileId, long generation, boolean recovery) throws IOException {
    long floor = store.layoutFloor(fileId);
    if (floor == ShardStore.FILE_DELETED) {
      return recovery ? null : "file " + fileId + " was deleted: this server holds none of its shards any more";
    }
    if (generation >= floor) {
      return null;
    }
    return "the shards of file " + fileId + " moved between servers (layout generation " + floor
        + "; this request was planned with " + generation + "): re-read its layout";
  }

  /**
   * New data: writes with bytes, and writers' lock requests (refused before they store anything;
   * recovery locks servers it only reads from).
   */
  private static boolean needsSpace(DataRequestProto req) {
    return switch (req.getOpCase()) {
      case WRITE -> req.getWrite().getRangesCount() > 0;
      case LOCK_READ -> !req.getRecovery();
      default -> false;
    };
  }

  /**
   * {@code landing}, the writes a snapshot at {@code epoch} holds landing (see
   * {@link StripeLockTable#whenLanded}), bounded by {@link #LANDING_WAIT}: then the read goes ahead.
   */
  private static CompletableFuture<Void> landed(CompletableFuture<Void> landing, long epoch) {
    return landing.orTimeout(LANDING_WAIT.toMillis(), TimeUnit.MILLISECONDS)
        .exceptionally(e -> {
          LOG.warn("A read of the snapshot at epoch {} waited {} s for a writer that held its stripes' locks when the"
              + " snapshot was taken and has not written since; reading what landed", epoch, LANDING_WAIT.toSeconds());
          return null;
        });
  }

  private static Passage passageOf(DataRequestProto req) {
    return switch (req.getOpCase()) {
      case WRITE -> !req.getWrite().hasUnlock() ? Passage.UNLOCKED_CHANGE
          : req.getWrite().hasEpoch() ? Passage.STAMPED_CHANGE : Passage.LOCKED_CHANGE;
      case TRUNCATE -> req.getTruncate().hasUnlock() ? Passage.LOCKED_CHANGE : Passage.UNLOCKED_CHANGE;
      case DELETE_FILE -> Passage.UNLOCKED_CHANGE;
      default -> Passage.FREE;
    };
  }

  /** The meta leader's PREPARE / COMMIT / ABORT of a snapshot. */
  private CompletableFuture<RpcReply> gateStep(SnapshotGateRequestProto g) {
    if (g.getRetainedEpochsCount() > MAX_RETAINED) {
      throw new IllegalArgumentException("a gate request names " + g.getRetainedEpochsCount()
          + " snapshots; at most " + MAX_RETAINED);
    }
    long[] retained = g.getRetainedEpochsList().stream().mapToLong(Long::longValue).toArray();
    switch (g.getStep()) {
      case PREPARE -> {
        if (g.getDrainTimeoutMs() < 1 || g.getDrainTimeoutMs() > 60_000) {
          throw new IllegalArgumentException("drain timeout " + g.getDrainTimeoutMs() + " ms is not in 1..60000");
        }
        return snapshots.prepare(g.getAttempt(), new EpochState(g.getEpoch(), retained),
            Duration.ofMillis(g.getDrainTimeoutMs()))
            .thenApply(busy -> busy == null ? ok() : error(StatusProto.BUSY, busy));
      }
      case COMMIT -> {
        if (g.getNewEpoch() <= g.getEpoch()) {
          throw new IllegalArgumentException("COMMIT must move the epoch forward (" + g.getEpoch() + " to "
              + g.getNewEpoch() + ")");
        }
        gate.commit(g.getAttempt(), new EpochState(g.getNewEpoch(), retained));
        return CompletableFuture.completedFuture(ok());
      }
      case ABORT -> {
        gate.abort(g.getAttempt());
        return CompletableFuture.completedFuture(ok());
      }
      default -> throw new IllegalArgumentException("snapshot gate request names no step");
    }
  }

  private RpcReply execute(DataRequestProto req, ByteBuf payload) throws IOException {
    ByteString client = req.getCaller().getClientId();
    switch (req.getOpCase()) {
      case WRITE -> {
        return write(req.getWrite(), payload, client, req.getRecovery());
      }
      case READ -> {
        ReadShardsRequestProto r = req.getRead();
        return read(r.getRangesList(), r.getProbe(), r.getAtSnapshot() ? r.getSnapshotEpoch() : Long.MAX_VALUE,
            List.of(), 0, r.getWithVersions());
      }
      case DIRTY_SCAN -> {
        DirtyScanRequestProto d = req.getDirtyScan();
        DirtyScanResponseProto.Builder out = DirtyScanResponseProto.newBuilder();
        for (DirtyFile f : store.dirtyFiles(d.getServer().isEmpty() ? null : d.getServer(),
            d.getOneFile() ? d.getFileId() : -1)) {
          out.addFileIds(f.fileId()).addSequences(f.sequence()).addServers(f.missingServer());
        }
        return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).setDirty(out).build());
      }
      case DIRTY_CLEAR -> {
        DirtyClearRequestProto d = req.getDirtyClear();
        if (d.getServer().isEmpty() || d.getFileIdsCount() != d.getSequencesCount()) {
          throw new IllegalArgumentException("a dirty-log clear names a server and one sequence per file");
        }
        List<DirtyFile> entries = new ArrayList<>();
        for (int i = 0; i < d.getFileIdsCount(); i++) {
          entries.add(new DirtyFile(d.getServer(), d.getFileIds(i), d.getSequences(i)));
        }
        store.clearDirty(d.getServer(), entries);
        return ok();
      }
      case SCAN_VERSIONS -> {
        ScanVersionsRequestProto sv = req.getScanVersions();
        VersionReport report = store.scanVersions(sv.getWritten() ? sv.getWrittenAfter() : Long.MAX_VALUE,
            sv.getWrittenUpTo(), sv.getUsage());
        ScanVersionsResponseProto.Builder out = ScanVersionsResponseProto.newBuilder()
            .addAllWrittenFiles(report.writtenFiles());
        report.exclusiveBytes().forEach((epoch, bytes) -> out.addEpochs(epoch).addExclusiveBytes(bytes));
        return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).setVersions(out).build());
      }
      case LOCK_READ -> {
        checkRanges(req.getLockRead().getReadsList());
        StringBuilder closed = new StringBuilder();
        StripeLockTable.Outcome got = gate.grantLock(() -> {
          try {
            return locks.tryLock(req.getLockRead().getLock(), client, req.getRecovery(),
                req.getLockRead().getUnitsStaleHere(), store.epoch());
          } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        }, closed);
        if (got == null) {
          return error(StatusProto.BUSY, closed.toString());
        }
        if (got instanceof StripeLockTable.Refused refused) {
          return error(StatusProto.BUSY, refused.holder());
        }
        try {
          return read(req.getLockRead().getReadsList(), false, Long.MAX_VALUE,
              store.dirtyServers(req.getLockRead().getLock().getFileId()), ((StripeLockTable.Granted) got).epoch(),
              req.getLockRead().getWithVersions());
        } catch (IOException | RuntimeException e) {
          locks.release(req.getLockRead().getLock(), client);
          throw e;
        }
      }
      case UNLOCK -> {
        boolean waited = locks.writersRefused(req.getUnlock().getLock(), client);
        locks.release(req.getUnlock().getLock(), client);
        return released(waited);
      }
      case DELETE_FILE -> {
        DeleteFileRequestProto d = req.getDeleteFile();
        if (d.getMoreFileIdsCount() >= MAX_FILES_PER_DELETE) {
          throw new IllegalArgumentException("a delete names " + (d.getMoreFileIdsCount() + 1)
              + " files; at most " + MAX_FILES_PER_DELETE + " in one request");
        }
        List<Long> files = new ArrayList<>(d.getMoreFileIdsCount() + 1);
        files.add(d.getFileId());
        files.addAll(d.getMoreFileIdsList());
        for (long fileId : files) {
          if (d.getMovedAway()) {
            store.dropCopy(fileId);
          } else {
            store.deleteFile(fileId);
          }
        }
        return ok();
      }
      case LAYOUT_FENCE -> {
        store.fenceLayout(req.getLayoutFence().getFileId(), req.getLayoutFence().getGeneration());
        return ok();
      }
      case TRUNCATE -> {
        return truncate(req.getTruncate(), client);
      }
      case SYNC -> {
        store.sync();
        return ok();
      }
      default -> throw new IllegalArgumentException("request names no operation");
    }
  }

  /** Cuts the file; under a lock, only while it is still held, releasing it in the same batch. */
  private RpcReply truncate(TruncateFileRequestProto t, ByteString client) throws IOException {
    if (t.getKeepLengthsCount() > 255 || t.getMissingServersCount() > 255) {
      throw new IllegalArgumentException("truncate names " + t.getKeepLengthsCount() + " units and "
          + t.getMissingServersCount() + " missing servers; at most 255 of each");
    }
    int[] keep = t.getKeepLengthsList().stream().mapToInt(i -> i).toArray();
    if (!t.hasUnlock()) {
      store.truncateFile(t.getFileId(), t.getStripe(), keep,
          new WriteBookkeeping(null, t.getFileId(), t.getMissingServersList(), t.getStaleMarked()));
      return ok();
    }
    StripeLockProto lock = t.getUnlock();
    if (lock.getFileId() != t.getFileId()) {
      throw new IllegalArgumentException("a truncate of file " + t.getFileId() + " names a lock of file "
          + lock.getFileId());
    }
    if (locks.beginWrite(lock, client).isEmpty()) {
      return error(StatusProto.LOCK_LOST, "the lock on stripes from " + lock.getFirstStripe() + " of file "
          + lock.getFileId() + " was lost (its lease ran out before this truncate arrived); nothing was cut");
    }
    try {
      store.truncateFile(t.getFileId(), t.getStripe(), keep, new WriteBookkeeping(StripeLockTable.key(lock, client),
          t.getFileId(), t.getMissingServersList(), t.getStaleMarked()));
    } catch (IOException | RuntimeException e) {
      locks.endWrite(lock, client);
      throw e;
    }
    boolean waited = locks.writersRefused(lock, client);
    locks.forget(lock, client);
    return released(waited);
  }

  /** Stores the units; a phase-2 write releases its lock and logs skipped servers in the same batch. */
  private RpcReply write(WriteShardsRequestProto w, ByteBuf payload, ByteString client, boolean recovery)
      throws IOException {
    List<ShardWrite> writes = toWrites(w, payload);
    if (w.getMissingServersCount() > 255) {
      throw new IllegalArgumentException("a write names " + w.getMissingServersCount() + " missing servers; at most 255");
    }
    long fileId = w.hasUnlock() ? w.getUnlock().getFileId()
        : w.getRangesCount() > 0 ? w.getRanges(0).getFileId() : 0;
    if (w.getMissingServersCount() > 0 && fileId == 0) {
      throw new IllegalArgumentException("a write naming missing servers must name its file (ranges or unlock)");
    }
    if (w.hasUnlock() && w.hasGuard()) {
      throw new IllegalArgumentException("a write names either the lock it releases (unlock) or the lock it keeps"
          + " (guard), not both");
    }
    byte[] lockKey = w.hasUnlock() ? StripeLockTable.key(w.getUnlock(), client) : null;
    // units written under a lock land only while the lock is held: once recovery took an expired
    // lock over and recomputed the stripes' parity, a late phase 2 would leave them inconsistent;
    // once a new coordinator took a rebuild's lock over and copied the file, a deposed one's late
    // copy would leave its units stale
    StripeLockProto lock = w.hasUnlock() ? w.getUnlock() : w.hasGuard() ? w.getGuard() : null;
    if (lock != null) {
      for (ShardRangeProto r : w.getRangesList()) {
        if (r.getFileId() != lock.getFileId()) {
          throw new IllegalArgumentException("a write under a lock of file " + lock.getFileId() + " names units of file "
              + r.getFileId());
        }
      }
    }
    boolean guarded = lock != null && !writes.isEmpty();
    OptionalLong granted = guarded ? locks.beginWrite(lock, client) : OptionalLong.empty();
    if (guarded && granted.isEmpty()) {
      LOG.warn("A write to file {} arrived after its lock on stripes from {} was {}; refused", fileId,
          lock.getFirstStripe(), w.hasUnlock() ? "taken over (its lease ran out)"
              : "taken over or dropped (its recovery coordinator is no longer the meta leader's)");
      return error(StatusProto.LOCK_LOST, "the lock on stripes from " + lock.getFirstStripe() + " of file "
          + lock.getFileId() + " was lost (" + (w.hasUnlock() ? "its lease ran out before this write arrived"
              : "another recovery coordinator took it over") + "); nothing was stored");
    }
    if (guarded && w.hasEpoch() && w.getEpoch() > store.epoch() + 1) {
      // more than one snapshot this server has not heard of: it learns the epoch from its next heartbeat
      locks.endWrite(lock, client);
      return error(StatusProto.UNAVAILABLE, "the write is stamped with epoch " + w.getEpoch() + " but this data server"
          + " is still at epoch " + store.epoch() + " (it missed snapshots while cut off from the meta group); it"
          + " catches up with its next heartbeat");
    }
    try {
      long epoch = writes.isEmpty() ? ShardStore.CURRENT_EPOCH : stampOf(w, granted, recovery);
      store.write(writes, new WriteBookkeeping(lockKey, fileId, w.getMissingServersList(), w.getStaleMarked()),
          epoch, w.getSync());
    } catch (IOException | RuntimeException e) {
      if (guarded) {
        locks.endWrite(lock, client);
      }
      throw e;
    }
    if (w.hasUnlock()) {
      boolean waited = locks.writersRefused(w.getUnlock(), client);
      locks.forget(w.getUnlock(), client);
      return released(waited);
    } else if (guarded) {
      locks.endWrite(lock, client);
    }
    return ok();
  }

  /**
   * The epoch a write is stamped with: a phase 2's own (the newest grant epoch among its
   * servers: at least this server's grant; one past this server's epoch is a snapshot's COMMIT
   * it has not received yet), else the current one. Recovery's parity repair names the newest
   * version among its stripes' units, which may be older than the lock it took over them.
   */
  private long stampOf(WriteShardsRequestProto w, OptionalLong granted, boolean recovery) {
    if (!w.hasEpoch()) {
      return ShardStore.CURRENT_EPOCH;
    }
    if (granted.isEmpty()) {
      throw new IllegalArgumentException("only a phase-2 write under a held lock may name its epoch");
    }
    if (w.getEpoch() < granted.getAsLong() && !recovery) {
      throw new IllegalArgumentException("a write stamped with epoch " + Long.toUnsignedString(w.getEpoch())
          + " under a lock granted at epoch " + granted.getAsLong() + ": a write's epoch is at least its locks'");
    }
    return w.getEpoch();
  }

  private static List<ShardWrite> toWrites(WriteShardsRequestProto w, ByteBuf payload) {
    long total = checkRanges(w.getRangesList());
    if (total != payload.readableBytes()) {
      throw new IllegalArgumentException("write ranges add up to " + total + " bytes but the payload has "
          + payload.readableBytes());
    }
    List<ShardWrite> out = new ArrayList<>(w.getRangesCount());
    int pos = payload.readerIndex();
    for (ShardRangeProto r : w.getRangesList()) {
      ShardId shard = new ShardId(r.getFileId(), r.getStripe(), r.getUnit());
      if (r.getHole()) {
        if (r.getOffset() != 0 || r.getLength() != 0) {
          throw new IllegalArgumentException("a hole range of shard " + shard + " names bytes ("
              + Integer.toUnsignedString(r.getOffset()) + "+" + Integer.toUnsignedString(r.getLength())
              + "); a hole has none");
        }
        out.add(ShardWrite.hole(shard));
        continue;
      }
      boolean covers = r.getCoversUnit() && r.getOffset() == 0;
      out.add(new ShardWrite(shard, r.getOffset(), payload.slice(pos, r.getLength()), covers,
          covers && w.getWholeStripes()));
      pos += r.getLength();
    }
    return out;
  }

  private RpcReply read(List<ShardRangeProto> ranges, boolean probe, long atEpoch, List<String> dirtyServers,
      long lockEpoch, boolean withVersions) throws IOException {
    long total = checkRanges(ranges);
    if (!probe && total > MAX_READ_BYTES) {
      throw new IllegalArgumentException("read of " + total + " bytes exceeds the per-request limit of "
          + MAX_READ_BYTES);
    }
    ReadShardsResponseProto.Builder meta = ReadShardsResponseProto.newBuilder();
    CompositeByteBuf out = Unpooled.compositeBuffer(Math.max(2, ranges.size() * 2));
    try {
      for (ShardRangeProto r : ranges) {
        ShardId id = new ShardId(r.getFileId(), r.getStripe(), r.getUnit());
        if (withVersions) {
          meta.addVersions(store.versionAt(id, atEpoch));
        }
        ByteBuf got;
        try {
          got = store.read(id, r.getOffset(), r.getLength(), atEpoch);
        } catch (CorruptShardException e) {
          corruption.found(id.fileId(), e.getMessage());
          meta.addStates(ShardStateProto.SHARD_CORRUPT).addStoredLengths(0);
          continue;
        }
        meta.addStates(got == null ? ShardStateProto.SHARD_ABSENT : ShardStateProto.SHARD_STORED)
            .addStoredLengths(got == null ? 0 : got.readableBytes());
        if (got != null && probe) {
          got.release();
        } else if (got != null) {
          out.addComponent(true, got);
        }
      }
    } catch (IOException | RuntimeException e) {
      out.release();
      throw e;
    }
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).setRead(meta)
        .addAllDirtyServers(dirtyServers).setLockEpoch(lockEpoch).build(), out);
  }

  /** Checks every range; returns their total length. */
  private static long checkRanges(List<ShardRangeProto> ranges) {
    long total = 0;
    for (ShardRangeProto r : ranges) {
      checkRange(r);
      total += r.getLength();
    }
    return total;
  }

  private static void checkRange(ShardRangeProto r) {
    if (r.getOffset() < 0 || r.getLength() < 0 || (long) r.getOffset() + r.getLength() > (64L << 20)
        || r.getStripe() < 0 || r.getUnit() < 0 || r.getUnit() > 255) {
      throw new IllegalArgumentException("shard range " + r.getFileId() + "/" + r.getStripe() + "/" + r.getUnit()
          + " at " + Integer.toUnsignedString(r.getOffset()) + "+" + Integer.toUnsignedString(r.getLength())
          + " lies outside any stripe unit");
    }
  }

  private static RpcReply ok() {
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).build());
  }

  /** OK to a request that released a lock, saying whether writers waited on it. */
  private static RpcReply released(boolean writersWaited) {
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(StatusProto.OK).setWritersWaited(writersWaited)
        .build());
  }

  private static RpcReply error(StatusProto status, String message) {
    return RpcReply.of(DataResponseProto.newBuilder().setStatus(status).setMessage(message).build());
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return error(StatusProto.INTERNAL, String.valueOf(cause.getMessage()));
  }
}
