package io.tessera.meta.recovery;

import io.netty.buffer.ByteBuf;
import io.tessera.common.dataio.DataServerReply;
import io.tessera.common.dataio.StripeLocks;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.LayoutFenceRequestProto;
import io.tessera.common.proto.LockReadRequestProto;
import io.tessera.common.proto.ReadShardsResponseProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.UnlockRequestProto;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * What keeps writers off the stripes recovery works on: its stripe locks, taken on every server of
 * a file at once (patiently, see {@link PatientLocking}) and released the same way, and the layout
 * fences that turn away writers still planning with a file's old layout.
 */
final class RecoveryLocks {
  private final DataServerCalls calls;
  private final long leaseMillis;
  private final StripeLocks locks;
  private final PatientLocking locking = PatientLocking.real();

  RecoveryLocks(DataServerCalls calls, long leaseMillis) {
    this.calls = calls;
    this.leaseMillis = leaseMillis;
    this.locks = new StripeLocks(Duration.ofMillis(leaseMillis));
  }

  StripeLockProto lock(long fileId, long first, int count) {
    return locks.lock(fileId, first, count);
  }

  /** {@code copyOnly}: a rebuild's lock, whose holder writes only to the server being rebuilt. */
  StripeLockProto lock(long fileId, long first, int count, boolean copyOnly) {
    return locks.lock(fileId, first, count, copyOnly);
  }

  /** Takes the lock on every server at once, reading nothing (the empty replies are released). */
  void lockAll(List<String> servers, StripeLockProto lock, long generation, Set<String> staleHere)
      throws InterruptedException {
    Map<String, ByteBuf> payloads = new HashMap<>();
    lockAll(servers, lock, Map.of(), new HashMap<>(), payloads, generation, staleHere);
    payloads.values().forEach(ByteBuf::release);
  }

  /**
   * Takes the lock on every server (reading what {@code reads} names on the way), keeping what it
   * was granted while writers finish with the rest (see {@link PatientLocking}); gives up after
   * twice the lease. {@code staleHere}: servers whose units of the file are stale (the one a
   * copy-only lock rebuilds, and any other recorded stale): they hand over writers' locks kept from
   * before their restart.
   */
  void lockAll(
      List<String> servers,
      StripeLockProto lock,
      Map<String, List<ShardRangeProto>> reads,
      Map<String, ReadShardsResponseProto> answers,
      Map<String, ByteBuf> payloads,
      long generation,
      Set<String> staleHere)
      throws InterruptedException {
    PatientLocking.Ask ask =
        asked -> {
          Map<String, CompletableFuture<DataServerReply>> sent = new LinkedHashMap<>();
          for (String server : asked) {
            sent.put(
                server,
                calls.callAsync(
                    server,
                    DataRequestProto.newBuilder()
                        .setLayoutGeneration(generation)
                        .setLockRead(
                            LockReadRequestProto.newBuilder()
                                .setLock(lock)
                                .setWithVersions(true)
                                .setUnitsStaleHere(lock.getCopyOnly() && staleHere.contains(server))
                                .addAllReads(reads.getOrDefault(server, List.of()))),
                    null));
          }
          List<String> granted = new ArrayList<>();
          List<String> busy = new ArrayList<>();
          RecoveryException failure = null;
          for (Map.Entry<String, CompletableFuture<DataServerReply>> e : sent.entrySet()) {
            try {
              DataServerReply r = calls.await(e.getValue());
              granted.add(e.getKey());
              answers.put(e.getKey(), r.header().getRead());
              payloads.put(e.getKey(), r.payload());
            } catch (RecoveryException x) {
              if (x.status() == StatusProto.BUSY) {
                busy.add(e.getKey());
              }
              if (failure == null || failure.status() == StatusProto.BUSY) {
                failure = x;
              }
            }
          }
          return new PatientLocking.Round(granted, busy, failure);
        };
    Consumer<List<String>> release =
        held -> {
          unlockAll(held, lock);
          for (String server : held) {
            answers.remove(server);
            ByteBuf p = payloads.remove(server);
            if (p != null) {
              p.release();
            }
          }
        };
    locking.lockAll(servers, ask, release, System.nanoTime() + 2 * leaseMillis * 1_000_000);
  }

  /**
   * Releases the lock on every server at once; one that cannot be reached frees it when its lease
   * runs out. Returns whether a writer waited on it: on any server, or unknown (one did not
   * answer).
   */
  boolean unlockAll(Collection<String> servers, StripeLockProto lock) {
    Map<String, DataRequestProto.Builder> unlocks = new LinkedHashMap<>();
    for (String server : servers) {
      unlocks.put(
          server,
          DataRequestProto.newBuilder().setUnlock(UnlockRequestProto.newBuilder().setLock(lock)));
    }
    try {
      return calls.callAllHeaders(unlocks).values().stream()
          .anyMatch(DataResponseProto::getWritersWaited);
    } catch (RecoveryException e) {
      // every server was asked; one that did not answer frees the lock at lease expiry
      return true;
    }
  }

  /** Raises the file's layout fence on every server; all must have it before a move is logged. */
  void fence(List<String> servers, long fileId, long generation) {
    for (String server : servers) {
      calls.callHeader(
          server,
          DataRequestProto.newBuilder()
              .setLayoutFence(
                  LayoutFenceRequestProto.newBuilder().setFileId(fileId).setGeneration(generation)),
          null);
    }
  }
}
