package io.tessera.meta.recovery;

import io.tessera.common.dataio.WriteBatch;
import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Recomputes parity from data units: for stripes a writer left locked when it died, and for stripes
 * fsck found mismatched or unprotected.
 */
final class ParityRepair {
  private final DataServerCalls calls;
  private final ShardRebuilder.Namespace namespace;
  private final Predicate<String> serving;
  private final RecoveryLocks locks;
  private final StripeReader reader;
  private final UnitBuffers buffers;

  ParityRepair(
      DataServerCalls calls,
      ShardRebuilder.Namespace namespace,
      Predicate<String> serving,
      RecoveryLocks locks,
      StripeReader reader,
      UnitBuffers buffers) {
    this.calls = calls;
    this.namespace = namespace;
    this.serving = serving;
    this.locks = locks;
    this.reader = reader;
    this.buffers = buffers;
  }

  /**
   * Repairs stripes a writer left locked when it died (between its phases, or with phase 2 on only
   * some servers): takes the orphan lock over on every server of the file, reads the data units,
   * writes freshly encoded parity units, releases the lock. Returns the parity bytes written. Also
   * serves fsck --repair of mismatched parity ({@code reportedBy} null: no orphan).
   */
  long repair(long fileId, long first, int reportedCount, String reportedBy)
      throws InterruptedException {
    InodeProto in = namespace.inode(fileId);
    if (in == null || in.getLayout().getParityUnits() == 0) {
      // nothing to repair (removed file, or no parity): only an orphan lock is left to release
      if (reportedBy != null) {
        releaseOrphan(fileId, in, first, reportedCount, reportedBy);
      }
      return 0;
    }
    StripeLayout layout = StripeLayout.of(in.getLayout());
    // a file-wide lock (a rebuild's or a move's) covers far more stripes than the file has
    long fileStripes = RecoveryRequests.stripes(layout, in.getSize());
    int count = (int) Math.max(1, Math.min(reportedCount, fileStripes - first));
    StripeLockProto lock = locks.lock(fileId, first, count);
    List<String> lockSet = new LinkedHashSet<>(layout.servers()).stream().filter(serving).toList();
    Set<String> current = new LinkedHashSet<>(lockSet);
    current.removeAll(in.getStaleServersList());
    // parity units too: their versions count for the epoch the new parity is stamped with
    StripeReader.Stripes stripes =
        reader.read(
            fileId,
            layout,
            first,
            first + count,
            current,
            (stripe, u) -> true,
            lockSet,
            lock,
            Set.of());
    long stamp = stripes.newestVersion();
    boolean release = true;
    try {
      WriteShardsRequestProto.Builder request =
          stamped(WriteShardsRequestProto.newBuilder().setUnlock(lock), stamp);
      Map<String, WriteBatch> writes =
          encodedParity(fileId, layout, stripes, first, count, current, request);
      if (layout.generation() > 0) {
        // the lock may be a move's that could not fence every server: fence before anything is
        // released
        try {
          locks.fence(lockSet, fileId, layout.generation());
        } catch (RecoveryException e) {
          release = false;
          throw e;
        }
      }
      for (Map.Entry<String, WriteBatch> e : writes.entrySet()) {
        calls.callHeader(
            e.getKey(),
            RecoveryRequests.forLayout(layout).setWrite(e.getValue().request()),
            e.getValue().payload());
      }
      buffers.giveBack(
          stripes.shards(), writes.values().stream().map(WriteBatch::payload).toList());
      return writes.values().stream().mapToLong(WriteBatch::bytes).sum();
    } finally {
      if (release) {
        locks.unlockAll(lockSet, lock); // servers written above released it already; the others now
      }
    }
  }

  /**
   * Encodes the parity of stripes [first, first + count) from their data units and gathers it, per
   * server of {@code current}, into writes that start as {@code request}.
   */
  private Map<String, WriteBatch> encodedParity(
      long fileId,
      StripeLayout layout,
      StripeReader.Stripes stripes,
      long first,
      int count,
      Set<String> current,
      WriteShardsRequestProto.Builder request) {
    long size = namespace.inode(fileId) == null ? 0 : namespace.inode(fileId).getSize();
    int k = layout.dataUnits();
    Map<String, WriteBatch> writes = new LinkedHashMap<>();
    for (long s = first; s < first + count; s++) {
      if (layout.storedLength(size, s, 0) == 0) {
        continue; // past the end of the file: nothing stored, nothing to repair
      }
      for (int u = 0; u < k; u++) {
        if (!stripes.present(s)[u]) {
          throw new RecoveryException(
              StatusProto.UNAVAILABLE,
              "stripe "
                  + s
                  + " of file "
                  + fileId
                  + ": data unit "
                  + u
                  + " on "
                  + layout.serverOf(s, u)
                  + " cannot be read, so its parity cannot be recomputed");
        }
      }
      byte[][] shards = stripes.shards(s);
      ErasureCodec.shared(k, layout.parityUnits()).encode(shards, 0, layout.stripeUnit());
      for (int u = k; u < layout.width(); u++) {
        String server = layout.serverOf(s, u);
        int length = layout.storedLength(size, s, u);
        if (current.contains(server) && length > 0) {
          writes
              .computeIfAbsent(server, x -> new WriteBatch(request.clone(), count))
              .add(fileId, s, u, 0, shards[u], 0, length, true);
        }
      }
    }
    return writes;
  }

  /** Takes over and releases the lock a writer left on a file with nothing to repair. */
  private void releaseOrphan(long fileId, InodeProto in, long first, int count, String reportedBy)
      throws InterruptedException {
    StripeLockProto orphan = locks.lock(fileId, first, count);
    if (in != null && in.getLayout().getGeneration() > 0) {
      // possibly a move's lock that could not fence every server: fence before releasing it
      locks.fence(
          in.getLayout().getServersList().stream().filter(serving).toList(),
          fileId,
          in.getLayout().getGeneration());
    }
    // a removed file has no layout to plan with: no fence applies
    locks.lockAll(
        List.of(reportedBy),
        orphan,
        in == null ? Long.MAX_VALUE : in.getLayout().getGeneration(),
        Set.of());
    locks.unlockAll(List.of(reportedBy), orphan);
  }

  /**
   * Stamps recomputed parity with the newest version among the stripes' units. A writer that died
   * in phase 2 left its units at its write's epoch; when a snapshot was committed at that epoch
   * since, parity written at the current epoch would leave the snapshot's stripes with the dead
   * writer's units beside the old parity. At the newest version, the snapshot and every later view
   * see parity that matches their data (no unit has a newer version: the stripes are locked).
   */
  private static WriteShardsRequestProto.Builder stamped(
      WriteShardsRequestProto.Builder write, long newestVersion) {
    return newestVersion < 0 ? write : write.setEpoch(newestVersion);
  }
}
