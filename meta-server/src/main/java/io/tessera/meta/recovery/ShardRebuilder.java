package io.tessera.meta.recovery;

import io.netty.buffer.ByteBuf;
import io.tessera.common.dataio.WriteBatch;
import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.TruncateFileRequestProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import java.util.function.Predicate;

/**
 * Rebuilds the shards of one file on the servers it is stale on (one, or each that is back) from
 * the file's other servers, while writers go on.
 *
 * <p>Stripes are copied a chunk at a time, each chunk under the same stripe locks writers take (on
 * every server of the file), so a chunk never mixes a writer's old and new units. Writes around the
 * target meanwhile bump the survivors' dirty-file sequences; at the end the whole file is locked
 * and the sequences compared with those taken at the start. Unchanged: the survivors' entries are
 * cleared and the file is logged rebuilt, still under the lock, so no write can slip between the
 * check and the record. Changed (the file is being written): it is copied again entirely under the
 * file-wide lock (writers of that file wait meanwhile).
 *
 * <p>A file whose units on the target fit in one chunk is copied under the file-wide lock from the
 * start: its one chunk lock covers the whole file anyway, and a write in flight when the sequences
 * are first taken would void an unlocked copy, so a file being written was copied twice.
 *
 * <p>Two paces bound what a rebuild takes from foreground I/O: the bytes it writes keep to the
 * {@link RateLimiter}'s rate, and the time it holds stripe locks (writers of those stripes wait)
 * keeps to the {@link LockShare} while clients are busy. A lock counts when a data server says
 * writers waited on it: one asked while it was held, or writers used its stripes in the second
 * before it was granted (their retries may fall between a short hold's start and end; stripes far
 * from where an appender writes do not count); a file-wide lock also counts when its file's chunks
 * were copied while writers waited. A file nobody was writing, small or large, moves or rebuilds at
 * the byte rate, without waiting out the pauses busy files' locks called for: a server holding
 * thousands of quiet files drains in minutes while writers are busy elsewhere.
 *
 * <p>Over 500 lines because rebuild and move share one protocol (chunked copy, then the check under
 * the file-wide lock, then the commit) whose steps are only safe in that order; its locks, reads,
 * dirty-log checks and parity repair live apart.
 */
final class ShardRebuilder {
  /** Bytes of the target's units copied per chunk. */
  private static final int CHUNK_BYTES = 8 << 20;

  /** The file-wide lock: as many stripes as one lock may cover. */
  private static final int ALL_STRIPES = 1 << 20;

  private static final int ATTEMPTS = 2;

  /**
   * Unit arrays kept for the next chunk: a chunk of a 9-wide layout takes 9 x {@link #CHUNK_BYTES}.
   */
  private static final long KEPT_BUFFER_BYTES = 10L * CHUNK_BYTES;

  /** Where the rebuilder reads the namespace and logs its outcome. */
  interface Namespace {
    InodeProto inode(long fileId);

    void rebuilt(long fileId, String server);

    /** Logs the move; false when the file's layout changed meanwhile (nothing was changed). */
    boolean moved(long fileId, String from, String to, long generation);
  }

  private final DataServerCalls calls;
  private final Namespace namespace;
  private final Predicate<String> serving;
  private final Predicate<String> rebuildable;
  private final RateLimiter limiter;
  private final LockShare lockShare;
  private final UnitBuffers buffers = new UnitBuffers(KEPT_BUFFER_BYTES);
  private final RecoveryLocks locks;
  private final StripeReader reader;
  private final DirtySequences dirty;
  private final ParityRepair parity;

  /**
   * @param serving whether a server can be read from and locked now (up, heard from)
   * @param rebuildable whether recovery would rebuild a server's stale units now: a file rebuilt
   *     for one server is rebuilt in the same pass on every other server it is stale on for which
   *     this is true
   */
  ShardRebuilder(
      DataServerCalls calls,
      Namespace namespace,
      Predicate<String> serving,
      Predicate<String> rebuildable,
      RateLimiter limiter,
      LockShare lockShare,
      long leaseMillis) {
    this.calls = calls;
    this.namespace = namespace;
    this.rebuildable = rebuildable;
    this.serving = serving;
    this.limiter = limiter;
    this.lockShare = lockShare;
    this.locks = new RecoveryLocks(calls, leaseMillis);
    this.reader = new StripeReader(calls, locks, buffers);
    this.dirty = new DirtySequences(calls);
    this.parity = new ParityRepair(calls, namespace, serving, locks, reader, buffers);
  }

  /**
   * Repairs stripes a writer left locked when it died (or fsck found mismatched, {@code reportedBy}
   * null); returns the parity bytes written (see {@link ParityRepair}).
   */
  long repairParity(long fileId, long first, int reportedCount, String reportedBy)
      throws InterruptedException {
    return parity.repair(fileId, first, reportedCount, reportedBy);
  }

  /**
   * Rebuilds {@code target}'s shards of the file and records it; returns the bytes written to each
   * server rebuilt (none when there was nothing to do). The other servers the file is stale on that
   * may be rebuilt now ({@code rebuildable}) are rebuilt in the same pass: the survivors' units are
   * read and decoded once for all of them, not once each.
   *
   * @throws RecoveryException when it cannot be done now (too few servers, a server failed); the
   *     file stays stale on the target and is tried again later
   */
  Map<String, Long> rebuild(long fileId, String target) throws InterruptedException {
    InodeProto in = namespace.inode(fileId);
    if (in == null || !in.getStaleServersList().contains(target)) {
      namespace.rebuilt(fileId, target); // removed or already rebuilt: only the index entry is left
      return Map.of();
    }
    StripeLayout layout = StripeLayout.of(in.getLayout());
    List<Target> targets = new ArrayList<>(List.of(new Target(target, target)));
    for (String other : in.getStaleServersList()) {
      if (!other.equals(target) && layout.servers().contains(other) && rebuildable.test(other)) {
        targets.add(new Target(other, other));
      }
    }
    return restore(
        fileId,
        layout,
        targets,
        in.getStaleServersList(),
        true,
        (t, others, after) -> {
          // order matters: survivors forget first, so a failure between leaves the file stale
          // (safe)
          dirty.clear(others, t.dirtyKey(), fileId, after);
          namespace.rebuilt(fileId, t.server());
        });
  }

  /**
   * Moves {@code from}'s units of the file to {@code to} (a server outside the file's layout) and
   * logs the new layout; returns the bytes written. While {@code from} serves and holds current
   * shards they are copied from it under a file-wide lock; otherwise they are decoded from the
   * other servers like a rebuild. The move is logged, then, still under the file-wide lock, every
   * server of the new layout (and {@code from}, if it serves) is fenced at the new generation, so a
   * writer still planning with the old layout is refused and re-reads it; the copy left on {@code
   * from} is deleted afterwards, when it can be reached.
   */
  long move(long fileId, String from, String to) throws InterruptedException {
    InodeProto in = namespace.inode(fileId);
    if (in == null || !in.getLayout().getServersList().contains(from)) {
      return 0; // removed, or moved already
    }
    StripeLayout old = StripeLayout.of(in.getLayout());
    StripeLayout next = old.replacing(from, to);
    List<String> stale = new ArrayList<>(in.getStaleServersList());
    stale.remove(from);
    Commit commit =
        (target, lockSet, after) -> {
          if (!namespace.moved(fileId, from, to, next.generation())) {
            throw new RecoveryException(
                StatusProto.BUSY, "file " + fileId + ": its layout changed during the move");
          }
          List<String> fenced = new ArrayList<>(lockSet);
          fenced.add(to);
          if (serving.test(from)) {
            fenced.add(from);
          }
          try {
            locks.fence(fenced, fileId, next.generation());
          } catch (RecoveryException e) {
            // a writer with the old layout could get through an unfenced server: keep the file
            // locked
            // (recovery fences before it releases an orphan lock of a moved file)
            throw new FenceIncomplete(fileId, e);
          }
          dirty.clear(lockSet, from, fileId, after);
        };
    if (old.parityUnits() == 0
        || (serving.test(from) && !in.getStaleServersList().contains(from))) {
      return copyFrom(fileId, old, next, from, to, commit);
    }
    return restore(fileId, next, List.of(new Target(to, from)), stale, false, commit)
        .values()
        .stream()
        .mapToLong(Long::longValue)
        .sum();
  }

  /** A move was logged but not every server could be fenced: the file's lock stays held. */
  private static final class FenceIncomplete extends RecoveryException {
    FenceIncomplete(long fileId, RecoveryException cause) {
      super(
          cause.status(),
          "file "
              + fileId
              + " moved, but a server could not be fenced (the file stays locked"
              + " until recovery fences it): "
              + cause.getMessage());
    }
  }

  /**
   * A server a restore writes units to, and the server whose dirty-file log entries record the
   * writes that went around them (the same server for a rebuild; for a move, the one leaving).
   */
  private record Target(String server, String dirtyKey) {}

  /**
   * What a finished restore records for one target, under the file-wide lock; {@code others}: the
   * other serving servers of the file, {@code after}: their dirty sequences for the target.
   */
  private interface Commit {
    void run(Target target, List<String> others, Map<String, Long> after)
        throws InterruptedException;
  }

  /**
   * Writes the targets' units of {@code layout} (decoded from the file's other current servers)
   * while writers go on. Then checks, under the file-wide lock, that no write went around a target
   * meanwhile, and commits each. Returns the bytes written to each target.
   */
  private Map<String, Long> restore(
      long fileId,
      StripeLayout layout,
      List<Target> targets,
      List<String> staleServers,
      boolean copyOnly,
      Commit commit)
      throws InterruptedException {
    if (layout.parityUnits() == 0) {
      throw new RecoveryException(
          StatusProto.UNAVAILABLE, "file " + fileId + " has no parity to rebuild from");
    }
    List<String> targetServers = targets.stream().map(Target::server).toList();
    Set<String> others = new LinkedHashSet<>(layout.servers());
    others.removeAll(targetServers);
    List<String> lockSet = others.stream().filter(serving).toList();
    Set<String> readable = new LinkedHashSet<>(lockSet);
    readable.removeAll(staleServers);
    if (readable.size() < layout.dataUnits()) {
      throw new RecoveryException(
          StatusProto.UNAVAILABLE,
          "file "
              + fileId
              + ": only "
              + readable.size()
              + " of its servers hold current shards ("
              + String.join(",", readable)
              + "); "
              + layout.dataUnits()
              + " are needed to rebuild "
              + String.join(",", targetServers));
    }
    List<String> everyone = new ArrayList<>(lockSet);
    everyone.addAll(targetServers);
    // servers whose units of the file are stale: writers' locks they kept from before a restart
    // guard nothing
    Set<String> staleHere = new HashSet<>(staleServers);
    staleHere.addAll(targetServers);
    InodeProto start = namespace.inode(fileId);
    boolean oneChunk =
        start != null
            && RecoveryRequests.stripes(layout, start.getSize()) <= stripesPerChunk(layout);
    // taken again under the file-wide lock
    Map<Target, Map<String, Long>> before =
        oneChunk ? Map.of() : sequences(everyone, targets, fileId);
    Map<String, Long> written = new LinkedHashMap<>();
    for (int attempt = oneChunk ? ATTEMPTS : 1; attempt <= ATTEMPTS; attempt++) {
      boolean underFileLock = attempt == ATTEMPTS;
      StripeLockProto fileLock = locks.lock(fileId, 0, ALL_STRIPES, copyOnly);
      long lockedSince = 0;
      boolean busy = false; // copied chunk by chunk while writers waited on a chunk
      if (underFileLock) {
        lockedSince = lockShare.beforeLocking();
        locks.lockAll(everyone, fileLock, layout.generation(), staleHere);
        before = sequences(everyone, targets, fileId);
      }
      boolean fileLocked = underFileLock;
      try {
        InodeProto now = namespace.inode(fileId);
        if (now == null) {
          targetServers.forEach(t -> namespace.rebuilt(fileId, t));
          return written;
        }
        long size = now.getSize();
        for (String t : targetServers) {
          truncate(t, fileId, layout, size);
        }
        busy =
            copy(
                    fileId,
                    layout,
                    size,
                    targetServers,
                    readable,
                    everyone,
                    staleHere,
                    underFileLock ? fileLock : null,
                    copyOnly,
                    written)
                && !underFileLock;
        if (!underFileLock) {
          // a file nobody was writing is only checked under this lock: it waits out no other file's
          // pause
          lockedSince = busy ? lockShare.beforeLocking() : lockShare.beforeUnwaitedLock();
          locks.lockAll(everyone, fileLock, layout.generation(), staleHere);
          fileLocked = true;
        }
        Map<Target, Map<String, Long>> after = sequences(everyone, targets, fileId);
        InodeProto end = namespace.inode(fileId);
        if (end == null) {
          targetServers.forEach(t -> namespace.rebuilt(fileId, t));
          return written;
        }
        if (after.equals(before) && end.getSize() == size) {
          for (Target t : targets) {
            commit.run(t, othersThan(everyone, t.server()), after.get(t));
          }
          return written;
        }
        before = after;
      } catch (FenceIncomplete e) {
        fileLocked = false;
        throw e;
      } finally {
        if (fileLocked) {
          boolean writersWaited = locks.unlockAll(everyone, fileLock);
          lockShare.released(lockedSince, busy || writersWaited); // class doc
        }
      }
    }
    // only a size recorded by a truncate whose cut landed before the file-wide lock gets here
    throw new RecoveryException(
        StatusProto.BUSY,
        "file "
            + fileId
            + " changed size while it was copied under its"
            + " file-wide lock; it is copied again in the next round");
  }

  private static List<String> othersThan(List<String> servers, String server) {
    return servers.stream().filter(s -> !s.equals(server)).toList();
  }

  /**
   * Copies {@code from}'s units (of layout {@code old}) to {@code to} as they are, with the whole
   * file locked on every server of both layouts: writers of the file wait until the move is logged.
   * For files without parity, and for servers leaving while they still serve.
   */
  private long copyFrom(
      long fileId, StripeLayout old, StripeLayout next, String from, String to, Commit commit)
      throws InterruptedException {
    List<String> lockSet = new ArrayList<>(new LinkedHashSet<>(old.servers()));
    lockSet.remove(from);
    List<String> everyone = new ArrayList<>(lockSet);
    everyone.add(from);
    everyone.add(to);
    StripeLockProto fileLock = locks.lock(fileId, 0, ALL_STRIPES);
    long lockedSince = lockShare.beforeLocking();
    locks.lockAll(everyone, fileLock, next.generation(), Set.of());
    boolean locked = true;
    try {
      InodeProto now = namespace.inode(fileId);
      if (now == null || now.getLayout().getGeneration() != old.generation()) {
        return 0;
      }
      long size = now.getSize();
      truncate(to, fileId, next, size);
      long stripes = RecoveryRequests.stripes(old, size);
      int perChunk = stripesPerChunk(old);
      long written = 0;
      for (long first = 0; first < stripes; first += perChunk) {
        long last = Math.min(stripes, first + perChunk);
        StripeReader.Stripes got =
            reader.read(
                fileId,
                old,
                first,
                last,
                Set.of(from),
                (stripe, unit) -> old.serverOf(stripe, unit).equals(from),
                List.of(),
                null,
                Set.of());
        WriteBatch w = new WriteBatch(RecoveryRequests.rebuiltUnits(), (int) (last - first));
        for (long s = first; s < last; s++) {
          int unit = RecoveryRequests.unitOn(old, s, from);
          if (!got.present(s)[unit]) {
            w.payload().release();
            throw new RecoveryException(
                StatusProto.UNAVAILABLE,
                "stripe "
                    + s
                    + " of file "
                    + fileId
                    + ": the unit on "
                    + from
                    + " cannot be read; it will be decoded from the other servers instead");
          }
          int length = old.storedLength(size, s, unit);
          if (length > 0 && !got.stored(s)[unit]) {
            w.addEmpty(RecoveryRequests.hole(fileId, s, unit));
          } else if (length > 0) {
            w.add(fileId, s, unit, 0, got.shards(s)[unit], 0, length, true);
          }
        }
        limiter.acquireHoldingLock(w.bytes()); // the whole file is locked: its writers wait
        calls.callHeader(
            to,
            RecoveryRequests.forLayout(next).setWrite(w.request().setGuard(fileLock)),
            w.payload());
        buffers.giveBack(got.shards(), List.of(w.payload()));
        written += w.bytes();
      }
      commit.run(new Target(to, from), lockSet, dirty.sequences(lockSet, from, fileId));
      return written;
    } catch (FenceIncomplete e) {
      locked = false;
      throw e;
    } finally {
      if (locked) {
        lockShare.released(lockedSince, locks.unlockAll(everyone, fileLock));
      }
    }
  }

  /**
   * After a move: every server of the file's current layout fenced at its generation, then the copy
   * left on {@code server} fenced and deleted. Throws when a server cannot be reached.
   */
  void dropLeftover(long fileId, String server) {
    InodeProto in = namespace.inode(fileId);
    if (in != null) {
      locks.fence(in.getLayout().getServersList(), fileId, in.getLayout().getGeneration());
      locks.fence(List.of(server), fileId, in.getLayout().getGeneration());
    }
    calls.callHeader(
        server,
        DataRequestProto.newBuilder()
            .setDeleteFile(
                DeleteFileRequestProto.newBuilder().setFileId(fileId).setMovedAway(true)),
        null);
  }

  /**
   * Copies stripes [0, stripes of size) of the file onto the targets, adding the bytes written to
   * each to {@code written}. {@code fileLock}: the file-wide lock held on every server, or null
   * (each chunk locks its stripes). Returns whether writers waited on any chunk's lock.
   */
  private boolean copy(
      long fileId,
      StripeLayout layout,
      long size,
      List<String> targets,
      Set<String> readable,
      List<String> everyone,
      Set<String> staleHere,
      StripeLockProto fileLock,
      boolean copyOnly,
      Map<String, Long> written)
      throws InterruptedException {
    long stripes = RecoveryRequests.stripes(layout, size);
    int perChunk = stripesPerChunk(layout);
    boolean writersWaited =
        false; // a file's first chunk is not held up by what other files' locks owe
    boolean anyWaited = false;
    for (long from = 0; from < stripes; from += perChunk) {
      long to = Math.min(stripes, from + perChunk);
      writersWaited =
          copyChunk(
              fileId,
              layout,
              size,
              targets,
              readable,
              everyone,
              staleHere,
              from,
              to,
              fileLock,
              copyOnly,
              writersWaited,
              written);
      anyWaited |= writersWaited;
    }
    return anyWaited;
  }

  /** Stripes copied together: each holds one unit of the target's. */
  private static int stripesPerChunk(StripeLayout layout) {
    return Math.max(1, CHUNK_BYTES / layout.stripeUnit());
  }

  /**
   * Copies stripes [from, to) under {@code fileLock}, or else under a chunk lock of their own,
   * taken after the {@link LockShare}'s pause only when writers waited on the file's last chunk
   * ({@code writersWaitedOnLast}). Returns whether writers waited on this chunk's lock.
   */
  private boolean copyChunk(
      long fileId,
      StripeLayout layout,
      long size,
      List<String> targets,
      Set<String> readable,
      List<String> everyone,
      Set<String> staleHere,
      long from,
      long to,
      StripeLockProto fileLock,
      boolean copyOnly,
      boolean writersWaitedOnLast,
      Map<String, Long> written)
      throws InterruptedException {
    boolean locked = fileLock != null;
    StripeLockProto chunkLock =
        locked ? null : locks.lock(fileId, from, (int) (to - from), copyOnly);
    // k units decode the targets': the first k readable ones of each stripe (data units first)
    BiPredicate<Long, Integer> firstK =
        (stripe, unit) -> {
          int before = 0;
          for (int u = 0; u < unit; u++) {
            before += readable.contains(layout.serverOf(stripe, u)) ? 1 : 0;
          }
          return before < layout.dataUnits();
        };
    long lockedSince =
        chunkLock == null
            ? 0
            : writersWaitedOnLast ? lockShare.beforeLocking() : lockShare.beforeUnwaitedLock();
    StripeReader.Stripes first =
        reader.read(fileId, layout, from, to, readable, firstK, everyone, chunkLock, staleHere);
    boolean chunkLocked = chunkLock != null;
    boolean writersWaited = true; // unless every server of the chunk says none did
    long bytes = 0;
    try {
      // a unit that came back corrupt or unavailable: read every readable unit instead (locks held)
      StripeReader.Stripes stripes =
          first.complete()
              ? first
              : reader.read(
                  fileId, layout, from, to, readable, (x, y) -> true, everyone, null, Set.of());
      Map<String, WriteBatch> writes = decodedUnits(fileId, layout, size, targets, stripes);
      for (Map.Entry<String, WriteBatch> e : writes.entrySet()) {
        written.merge(e.getKey(), e.getValue().bytes(), Long::sum);
        bytes += e.getValue().bytes();
      }
      Map<String, DataRequestProto.Builder> requests = new LinkedHashMap<>();
      Map<String, ByteBuf> payloads = new LinkedHashMap<>();
      writes.forEach(
          (target, w) -> {
            // a guard: lands only while the file-wide lock is ours
            WriteShardsRequestProto.Builder r =
                chunkLock != null
                    ? w.request().setUnlock(chunkLock)
                    : w.request().setGuard(fileLock);
            requests.put(target, RecoveryRequests.forLayout(layout).setWrite(r));
            payloads.put(target, w.payload());
          });
      List<ByteBuf> sent = List.copyOf(payloads.values());
      Map<String, DataResponseProto> stored = calls.callAllHeaders(requests, payloads);
      buffers.giveBack(stripes.shards(), sent);
      if (stripes != first) {
        buffers.giveBack(first.shards(), List.of());
      }
      if (chunkLocked) {
        boolean othersWaited =
            locks.unlockAll(
                everyone.stream().filter(x -> !targets.contains(x)).toList(), chunkLock);
        writersWaited =
            othersWaited || stored.values().stream().anyMatch(DataResponseProto::getWritersWaited);
        chunkLocked = false;
      }
    } finally {
      if (chunkLocked) {
        locks.unlockAll(everyone, chunkLock);
      }
    }
    if (chunkLock != null) {
      lockShare.released(lockedSince, writersWaited);
    }
    // paced once the chunk's lock is released: a writer of these stripes never waits out the rate
    // (under the file-wide lock every writer of the file waits: see acquireHoldingLock)
    if (locked) {
      limiter.acquireHoldingLock(bytes);
    } else {
      limiter.acquire(bytes);
    }
    return chunkLock != null && writersWaited;
  }

  /**
   * Decodes the targets' units of the stripes read and gathers them, per target, into writes of
   * rebuilt units (a stripe that is a hole everywhere stays a hole on the targets).
   */
  private static Map<String, WriteBatch> decodedUnits(
      long fileId,
      StripeLayout layout,
      long size,
      List<String> targets,
      StripeReader.Stripes stripes) {
    long to = stripes.from() + stripes.count();
    Map<String, WriteBatch> writes = new LinkedHashMap<>();
    for (String target : targets) {
      writes.put(
          target, new WriteBatch(RecoveryRequests.rebuiltUnits(), (int) (to - stripes.from())));
    }
    for (long s = stripes.from(); s < to; s++) {
      byte[][] shards = stripes.shards(s);
      boolean[] present = stripes.present(s);
      boolean onlyDataUnits = true;
      for (String target : targets) {
        int unit = RecoveryRequests.unitOn(layout, s, target);
        present[unit] = false;
        onlyDataUnits &= unit < layout.dataUnits();
      }
      stripes.requireData(s, fileId);
      // a stripe that is a hole on every server read is one on the targets too: zeros stored
      // there would be data beside parity the other servers never wrote
      if (!stripes.anyStored(s)) {
        for (String target : targets) {
          int unit = RecoveryRequests.unitOn(layout, s, target);
          if (layout.storedLength(size, s, unit) > 0) {
            writes.get(target).addEmpty(RecoveryRequests.hole(fileId, s, unit));
          }
        }
        continue;
      }
      if (onlyDataUnits) {
        // decode only the missing data units (the unread parity is not needed)
        ErasureCodec.shared(layout.dataUnits(), layout.parityUnits())
            .reconstructData(shards, present, 0, layout.stripeUnit());
      } else {
        ErasureCodec.shared(layout.dataUnits(), layout.parityUnits())
            .reconstruct(shards, present, 0, layout.stripeUnit());
      }
      for (String target : targets) {
        int unit = RecoveryRequests.unitOn(layout, s, target);
        int length = layout.storedLength(size, s, unit);
        if (length > 0) {
          writes.get(target).add(fileId, s, unit, 0, shards[unit], 0, length, true);
        }
      }
    }
    return writes;
  }

  /**
   * For each target, the dirty-file sequences of the file for it on every other server of {@code
   * everyone}.
   */
  private Map<Target, Map<String, Long>> sequences(
      List<String> everyone, List<Target> targets, long fileId) {
    Map<Target, Map<String, Long>> out = new HashMap<>();
    for (Target t : targets) {
      out.put(t, dirty.sequences(othersThan(everyone, t.server()), t.dirtyKey(), fileId));
    }
    return out;
  }

  private void truncate(String target, long fileId, StripeLayout layout, long size) {
    TruncateFileRequestProto.Builder t =
        TruncateFileRequestProto.newBuilder().setFileId(fileId).setStripe(layout.stripeOf(size));
    for (int keep : layout.keptUnitLengths(size)) {
      t.addKeepLengths(keep);
    }
    calls.callHeader(target, RecoveryRequests.forLayout(layout).setTruncate(t), null);
  }
}
