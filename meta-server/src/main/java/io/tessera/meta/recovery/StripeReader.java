package io.tessera.meta.recovery;

import io.netty.buffer.ByteBuf;
import io.tessera.common.dataio.ReadBatch;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.status.TesseraException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Reads whole units of a run of stripes from a file's servers, into unit arrays reused between
 * chunks ({@link UnitBuffers}), optionally taking a stripe lock in the same requests.
 */
final class StripeReader {
  private final DataServerCalls calls;
  private final RecoveryLocks locks;
  private final UnitBuffers buffers;

  StripeReader(DataServerCalls calls, RecoveryLocks locks, UnitBuffers buffers) {
    this.calls = calls;
    this.locks = locks;
    this.buffers = buffers;
  }

  /**
   * Units of stripes [from, to) as read: zero-padded to the unit, with which ones were readable,
   * which of those hold bytes (the others are holes) and the epoch of each one's version (-1: none,
   * or not read).
   */
  record Stripes(
      long from,
      int dataUnits,
      byte[][][] shards,
      boolean[][] present,
      boolean[][] stored,
      long[][] versions) {
    /** Whether any unit read of the stripe holds bytes (else it is a hole wherever it was read). */
    boolean anyStored(long stripe) {
      for (boolean b : stored[(int) (stripe - from)]) {
        if (b) {
          return true;
        }
      }
      return false;
    }

    /** How many stripes were read. */
    int count() {
      return present.length;
    }

    /** The newest version among all units read, or -1. */
    long newestVersion() {
      long newest = -1;
      for (long[] stripe : versions) {
        for (long v : stripe) {
          newest = Math.max(newest, v);
        }
      }
      return newest;
    }

    byte[][] shards(long stripe) {
      return shards[(int) (stripe - from)];
    }

    boolean[] present(long stripe) {
      return present[(int) (stripe - from)];
    }

    boolean[] stored(long stripe) {
      return stored[(int) (stripe - from)];
    }

    /** How many units of the stripe were read intact. */
    int readable(long stripe) {
      int got = 0;
      for (boolean b : present(stripe)) {
        got += b ? 1 : 0;
      }
      return got;
    }

    /** Throws unless stripe {@code s} has k readable units. */
    void requireData(long s, long fileId) {
      int got = readable(s);
      if (got < dataUnits) {
        throw new RecoveryException(
            StatusProto.UNAVAILABLE,
            "stripe "
                + s
                + " of file "
                + fileId
                + ": only "
                + got
                + " readable units; "
                + dataUnits
                + " needed");
      }
    }

    /** Whether every stripe has k readable units. */
    boolean complete() {
      for (long s = from; s < from + present.length; s++) {
        if (readable(s) < dataUnits) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * Reads the units {@code wanted} accepts of stripes [from, to) from {@code sources}; with a lock,
   * takes it on every server of {@code lockOn} in the same requests (and keeps it).
   */
  Stripes read(
      long fileId,
      StripeLayout layout,
      long from,
      long to,
      Set<String> sources,
      BiPredicate<Long, Integer> wanted,
      List<String> lockOn,
      StripeLockProto lock,
      Set<String> staleHere)
      throws InterruptedException {
    int unit = layout.stripeUnit();
    int width = layout.width();
    int n = (int) (to - from);
    byte[][][] shards = new byte[n][width][];
    boolean[][] present = new boolean[n][width];
    boolean[][] stored = new boolean[n][width];
    long[][] versions = new long[n][width];
    Map<String, ReadBatch> batches = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      Arrays.fill(versions[i], -1);
      for (int u = 0; u < width; u++) {
        shards[i][u] = buffers.take(unit);
        String server = layout.serverOf(from + i, u);
        if (sources.contains(server) && wanted.test(from + i, u)) {
          batches
              .computeIfAbsent(server, ReadBatch::new)
              .add(fileId, from + i, u, 0, unit, shards[i][u], 0, new int[] {i, u});
        }
      }
    }
    Map<String, List<ShardRangeProto>> reads = new LinkedHashMap<>();
    batches.forEach((server, b) -> reads.put(server, b.ranges()));
    Map<String, ReadShardsResponseProto> answers = new HashMap<>();
    Map<String, ByteBuf> payloads = new HashMap<>();
    try {
      if (lock == null) {
        Map<String, DataRequestProto.Builder> requests = new LinkedHashMap<>();
        reads.forEach(
            (server, ranges) ->
                requests.put(
                    server,
                    RecoveryRequests.forLayout(layout)
                        .setRead(ReadShardsRequestProto.newBuilder().addAllRanges(ranges))));
        calls
            .callAll(requests)
            .forEach(
                (server, r) -> {
                  answers.put(server, r.header().getRead());
                  payloads.put(server, r.payload());
                });
      } else {
        locks.lockAll(lockOn, lock, reads, answers, payloads, layout.generation(), staleHere);
      }
      for (ReadBatch b : batches.values()) {
        ReadShardsResponseProto a = copy(b, answers.get(b.server()), payloads.remove(b.server()));
        for (int r = 0; r < b.targets().size(); r++) {
          int[] at = (int[]) b.targets().get(r).tag();
          if (r < a.getVersionsCount()) {
            versions[at[0]][at[1]] = a.getVersions(r);
          }
          present[at[0]][at[1]] = ReadBatch.usable(a.getStates(r));
          stored[at[0]][at[1]] = a.getStates(r) == ShardStateProto.SHARD_STORED;
        }
      }
      for (int i = 0; i < n; i++) {
        for (int u = 0; u < width; u++) {
          if (!present[i][u]) {
            Arrays.fill(shards[i][u], (byte) 0); // a reused array: decoded into, or padding
          }
        }
      }
      return new Stripes(from, layout.dataUnits(), shards, present, stored, versions);
    } catch (RuntimeException | InterruptedException e) {
      if (lock != null) {
        locks.unlockAll(lockOn, lock);
      }
      throw e;
    } finally {
      payloads.values().forEach(ByteBuf::release);
    }
  }

  /** One server's answer into its units, every length checked against what was asked. */
  private static ReadShardsResponseProto copy(
      ReadBatch batch, ReadShardsResponseProto answer, ByteBuf payload) {
    if (answer == null || payload == null) {
      throw new RecoveryException(
          StatusProto.INTERNAL, "data server " + batch.server() + " sent no read answer");
    }
    try {
      return batch.copy(answer, payload);
    } catch (TesseraException e) {
      throw new RecoveryException(StatusProto.INTERNAL, e.getMessage());
    }
  }
}
