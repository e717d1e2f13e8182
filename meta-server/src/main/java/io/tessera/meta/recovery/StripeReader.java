package io.tessera.meta.recovery;

import io.netty.buffer.ByteBuf;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.ShardStateProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import java.util.ArrayList;
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
    Map<String, List<ShardRangeProto>> reads = new LinkedHashMap<>();
    for (long s = from; s < to; s++) {
      for (int u = 0; u < width; u++) {
        String server = layout.serverOf(s, u);
        if (sources.contains(server) && wanted.test(s, u)) {
          reads
              .computeIfAbsent(server, x -> new ArrayList<>())
              .add(
                  ShardRangeProto.newBuilder()
                      .setFileId(fileId)
                      .setStripe(s)
                      .setUnit(u)
                      .setOffset(0)
                      .setLength(unit)
                      .build());
        }
      }
    }
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
      int n = (int) (to - from);
      byte[][][] shards = new byte[n][width][];
      boolean[][] present = new boolean[n][width];
      boolean[][] stored = new boolean[n][width];
      long[][] versions = new long[n][width];
      for (int i = 0; i < n; i++) {
        Arrays.fill(versions[i], -1);
        for (int u = 0; u < width; u++) {
          shards[i][u] = buffers.take(unit);
        }
      }
      for (Map.Entry<String, List<ShardRangeProto>> e : reads.entrySet()) {
        ReadShardsResponseProto a = answers.get(e.getKey());
        ByteBuf p = payloads.get(e.getKey());
        int offset = 0;
        for (int i = 0; i < e.getValue().size(); i++) {
          ShardRangeProto r = e.getValue().get(i);
          int length = a.getStoredLengths(i);
          int at = (int) (r.getStripe() - from);
          if (i < a.getVersionsCount()) {
            versions[at][r.getUnit()] = a.getVersions(i);
          }
          if (a.getStates(i) == ShardStateProto.SHARD_STORED
              || a.getStates(i) == ShardStateProto.SHARD_ABSENT) {
            p.getBytes(p.readerIndex() + offset, shards[at][r.getUnit()], 0, length);
            Arrays.fill(shards[at][r.getUnit()], length, unit, (byte) 0);
            present[at][r.getUnit()] = true;
            stored[at][r.getUnit()] = a.getStates(i) == ShardStateProto.SHARD_STORED;
          }
          offset += length;
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
}
