package io.tessera.client.internal;

import io.tessera.client.IoCounters;
import io.tessera.common.dataio.ReadBatch;
import io.tessera.common.dataio.StripeLocks;
import io.tessera.common.dataio.WriteBatch;
import io.tessera.common.erasure.ErasureCodec;
import io.tessera.common.fault.FaultPoints;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.LockReadRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.RepairStripesRequestProto;
import io.tessera.common.proto.SetAttrRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.status.TesseraException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Writes to files with parity, in two phases per group of stripes:
 *
 * <ol>
 *   <li>LOCK+READ to every usable server the write reads or writes, at once: each locks the stripes
 *       and returns the old bytes the parity needs ({@link StripeUpdate} picks them). A refusal
 *       (another writer holds an overlapping lock) releases whatever was granted and retries after
 *       a randomised back-off: no deadlock, no central lock server.
 *   <li>Encode, then WRITE+UNLOCK to every server at once: each stores its units and frees the lock
 *       in one atomic batch.
 * </ol>
 *
 * Phase 2 is stamped with the newest epoch at which any server granted the group's locks, so a
 * snapshot committed meanwhile holds the write whole on every server, or none of it (see {@code
 * StripeLockTable}); size and stale-server records made between the phases name that epoch, and
 * when a snapshot at it was committed before they landed the group releases its locks and runs
 * again at the new epoch. A server that fails (after the data client's retry) is marked down and
 * the group starts again without it: the write goes on while every stripe keeps {@code k} usable
 * units. Before anything is acknowledged, the skipped servers are recorded as stale for the file in
 * the meta group (so readers decode around them) and in the survivors' dirty-file logs.
 *
 * <p>Over 500 lines because one group's two phases, its retries after refusals and failed servers,
 * and the epoch check between them are one state machine whose steps are only safe in this order;
 * the choice of what to read ({@link StripeUpdate}), the buffers and the locks live apart.
 */
public final class ParityWriter {
  /**
   * Fault point after a group's stripes are locked and read, before anything is written (throwing
   * there abandons the write with its locks held, as a crash would).
   */
  public static final String BETWEEN_PHASES = "client.parity-write.between-phases";

  /**
   * Fault point in phase 2: when armed, a group's units go to half of its servers first, then the
   * action runs (blocking or throwing leaves the stripes torn), then to the rest.
   */
  public static final String MID_PHASE2 = "client.parity-write.mid-phase2";

  /**
   * Fault point before each round of a write's lock renewals: throwing there skips the round, as a
   * process paused whole (a long GC pause) would.
   */
  public static final String LOCK_RENEWAL = LockRenewal.RENEWING;

  /** Times one write is written again after running past its locks' lease. */
  static final int MAX_LOCKS_LOST = 3;

  /** Bytes of one unit-column per server per group: bounds each request. */
  private static final int MAX_GROUP_BYTES = 16 << 20;

  /**
   * Free parity buffers kept for the next whole-stripe writes (a 6+3 stream with 1 MiB units has 24
   * MiB in flight).
   */
  private static final long KEPT_PARITY_BYTES = 64 << 20;

  private final DataClient data;
  private final MetaClient meta;
  private final Executor coding;
  private final IoCounters counters;
  private final StripeLocks locks;
  private final ParityBuffers parityBuffers = new ParityBuffers(KEPT_PARITY_BYTES);
  private final Object faultScope;

  /**
   * @param faultScope whom this writer's {@link FaultPoints} fire for: the client that owns it
   */
  public ParityWriter(
      DataClient data,
      MetaClient meta,
      Executor coding,
      IoCounters counters,
      Duration lease,
      Object faultScope) {
    this.faultScope = faultScope;
    this.data = data;
    this.meta = meta;
    this.coding = coding;
    this.counters = counters;
    this.locks = new StripeLocks(lease);
  }

  /** The lease of this client's stripe locks (tessera.client.lock-lease). */
  Duration lease() {
    return locks.lease();
  }

  /** This client's stripe locks: writes and truncates number their operations together. */
  StripeLocks locks() {
    return locks;
  }

  ErasureCodec codec(StripeLayout layout) {
    return ErasureCodec.shared(layout.dataUnits(), layout.parityUnits());
  }

  /**
   * Records in the meta group that {@code servers} missed changes to the file (readers then decode
   * around them until recovery rebuilds their shards). Done once per server and file.
   */
  CompletableFuture<Void> markStale(FileTarget file, Set<String> servers) {
    return markStale(file, servers, false, SizeExtension.UNSTAMPED);
  }

  /**
   * Like {@link #markStale(FileTarget, Set)}; with {@code again} the servers are recorded even when
   * this client already knows them as stale (a data server has no record of it: recovery may have
   * rebuilt them since). {@code epoch}: that of the data units the record is for ({@link
   * SizeExtension#UNSTAMPED} once they landed).
   */
  CompletableFuture<Void> markStale(
      FileTarget file, Set<String> servers, boolean again, long epoch) {
    Set<String> added = file.addStale(servers);
    if (again) {
      added = new HashSet<>(servers);
    }
    if (added.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    Set<String> sent = added;
    counters.degradedWrites.incrementAndGet();
    SetAttrRequestProto.Builder mark =
        SetAttrRequestProto.newBuilder().setFileId(file.fileId()).addAllAddStaleServers(sent);
    if (epoch != SizeExtension.UNSTAMPED) {
      mark.setWritesEpoch(epoch);
    }
    return meta.call(MetaRequestProto.newBuilder().setSetAttr(mark))
        .handle(
            (r, e) -> {
              if (e != null) {
                file.forgetStale(sent); // not recorded: the next write must try again
                throw e instanceof CompletionException ce ? ce : new CompletionException(e);
              }
              return null;
            });
  }

  /**
   * Writes {@code buf[off, off+len)} at {@code pos}; the array must stay unchanged until done.
   * {@code extendTo} records the file's new size in the meta group; each group calls it for its end
   * while it holds its locks, naming its epoch, so a snapshot sees a group's bytes and the size
   * that covers them together, or neither.
   */
  public CompletableFuture<Void> write(
      FileTarget file,
      long pos,
      byte[] buf,
      int off,
      int len,
      boolean sync,
      SizeExtension extendTo) {
    StripeLayout layout = file.layout();
    long first = layout.stripeOf(pos);
    long last = layout.stripeOf(pos + len - 1);
    int perGroup = Math.max(1, MAX_GROUP_BYTES / layout.stripeUnit());
    List<CompletableFuture<Void>> groups = new ArrayList<>();
    for (long s = first; s <= last; s += perGroup) {
      Group g =
          new Group(file, s, Math.min(last + 1, s + perGroup), pos, buf, off, len, sync, extendTo);
      groups.add(
          g.run(System.nanoTime() + 2 * lease().toNanos(), 0)
              .whenComplete((v, e) -> g.renewal.stop()));
    }
    return CompletableFuture.allOf(groups.toArray(CompletableFuture[]::new));
  }

  /** Stripes [from, to) of one write: locked, read, encoded and written together. */
  private final class Group {
    private final FileTarget file;
    private final StripeLayout layout;
    private final long from;
    private final long to;
    private final long pos;
    private final byte[] buf;
    private final int off;
    private final int len;
    private final boolean sync;
    private final SizeExtension extendTo;

    /** (stripe, unit) pairs found corrupt: not used again in this write. */
    private final UnusableUnits bad = new UnusableUnits();

    /** Whether this group re-read the file's stale servers from the meta group already. */
    private boolean refreshedStale;

    /** When the current attempt asked for its locks (attempts run one after another). */
    private long lockedSince;

    /** Attempts that ran past their lease and lost their locks (each retried, a few at most). */
    private int locksLost;

    /** Keeps the current attempt's locks while it waits on the cluster. */
    private volatile LockRenewal renewal = LockRenewal.NONE;

    Group(
        FileTarget file,
        long from,
        long to,
        long pos,
        byte[] buf,
        int off,
        int len,
        boolean sync,
        SizeExtension extendTo) {
      this.extendTo = extendTo;
      this.file = file;
      this.layout = file.layout();
      this.from = from;
      this.to = to;
      this.pos = pos;
      this.buf = buf;
      this.off = off;
      this.len = len;
      this.sync = sync;
    }

    private boolean usable(long stripe, int u) {
      return bad.usable(file, data.health(), stripe, u);
    }

    CompletableFuture<Void> run(long deadline, int attempt) {
      // snapshot who is usable: the plan and the lock set must agree for the whole attempt
      Set<String> involved = new LinkedHashSet<>();
      Set<String> skipped = new LinkedHashSet<>();
      List<StripeUpdate> updates = new ArrayList<>();
      Map<String, List<StripeUpdate.Read>> readsBy = new LinkedHashMap<>();
      Map<StripeUpdate.Read, Long> stripeOf = new HashMap<>();
      try {
        for (long s = from; s < to; s++) {
          long stripe = s;
          boolean[] ok = new boolean[layout.width()];
          for (int u = 0; u < ok.length; u++) {
            ok[u] = usable(stripe, u);
          }
          StripeUpdate update = new StripeUpdate(layout, stripe, pos, buf, off, len);
          for (StripeUpdate.Read r : update.plan(u -> ok[u], parityBuffers)) {
            readsBy
                .computeIfAbsent(layout.serverOf(stripe, r.unit()), x -> new ArrayList<>())
                .add(r);
            stripeOf.put(r, stripe);
            involved.add(layout.serverOf(stripe, r.unit()));
          }
          // Every writer of a stripe writes all of its parity units, so two writers of one stripe
          // always meet on a parity server: locking the servers read or written is enough.
          for (int u : update.unitsToWrite()) {
            (ok[u] ? involved : skipped).add(layout.serverOf(stripe, u));
          }
          updates.add(update);
        }
      } catch (TesseraException e) {
        return CompletableFuture.failedFuture(e);
      }
      StripeLockProto lock = locks.lock(file.fileId(), from, (int) (to - from));
      List<String> lockedOn = new ArrayList<>(involved);
      long lockedSince = System.nanoTime();
      this.lockedSince = lockedSince;
      renewal.stop(); // the previous attempt's lock was released
      renewal = LockRenewal.start(data, file, lock, lockedOn, faultScope);
      Map<String, CompletableFuture<Object>> phase1 = new LinkedHashMap<>();
      for (String server : lockedOn) {
        phase1.put(
            server, lockAndRead(server, lock, readsBy.getOrDefault(server, List.of()), stripeOf));
      }
      return CompletableFuture.allOf(phase1.values().toArray(CompletableFuture[]::new))
          .handle((v, e) -> null)
          // off the event loop: what follows plans and encodes, and a fault point may pause there
          .thenComposeAsync(
              v ->
                  afterPhase1(
                      phase1, lock, lockedOn, skipped, updates, deadline, attempt, lockedSince),
              coding);
    }

    /**
     * Completes with {@link Granted}, or with the reason to retry: BUSY, a down server, corrupt
     * shards.
     */
    private CompletableFuture<Object> lockAndRead(
        String server,
        StripeLockProto lock,
        List<StripeUpdate.Read> reads,
        Map<StripeUpdate.Read, Long> stripeOf) {
      ReadBatch batch = new ReadBatch(server);
      for (StripeUpdate.Read r : reads) {
        long stripe = stripeOf.get(r);
        batch.add(
            file.fileId(),
            stripe,
            r.unit(),
            r.offset(),
            r.length(),
            r.into(),
            r.at(),
            UnusableUnits.key(stripe, r.unit()));
      }
      LockReadRequestProto.Builder lr =
          LockReadRequestProto.newBuilder().setLock(lock).addAllReads(batch.ranges());
      return data.call(server, file.request(layout).setLockRead(lr), null)
          .handle(
              (reply, err) -> {
                if (err != null) {
                  return Failures.cause(err);
                }
                try {
                  List<Object> corrupt = batch.accept(reply.header(), reply.payload());
                  return corrupt.isEmpty()
                      ? new Granted(
                          Set.copyOf(reply.header().getDirtyServersList()),
                          reply.header().getLockEpoch())
                      : new CorruptUnits(corrupt);
                } catch (TesseraException e) {
                  return e;
                }
              });
    }

    private CompletableFuture<Void> afterPhase1(
        Map<String, CompletableFuture<Object>> phase1,
        StripeLockProto lock,
        List<String> lockedOn,
        Set<String> skipped,
        List<StripeUpdate> updates,
        long deadline,
        int attempt,
        long lockedSince) {
      List<String> granted = new ArrayList<>();
      long epoch = 0; // the newest epoch a server granted its lock at: phase 2 is stamped with it
      boolean busy = false;
      boolean retryNow = false;
      Throwable fatal = null;
      // a skipped server some locked server has no dirty-file entry for must be recorded as stale
      // again
      Set<String> unrecorded = new LinkedHashSet<>();
      Set<String> learnedStale = new LinkedHashSet<>();
      for (Map.Entry<String, CompletableFuture<Object>> e : phase1.entrySet()) {
        Object outcome = e.getValue().join();
        if (outcome instanceof Granted g) {
          granted.add(e.getKey());
          epoch = Math.max(epoch, g.epoch());
          for (String s : skipped) {
            if (!g.dirtyServers().contains(s)) {
              unrecorded.add(s);
            }
          }
          for (String s : g.dirtyServers()) {
            if (lockedOn.contains(s) && layout.servers().contains(s)) {
              learnedStale.add(s);
            }
          }
        } else if (outcome instanceof CorruptUnits c) {
          granted.add(e.getKey());
          c.units().forEach(u -> bad.addKey((Long) u));
          retryNow = true;
        } else if (outcome instanceof TesseraException te && te.status() == StatusProto.BUSY) {
          busy = true;
        } else if (outcome instanceof ServerDownException) {
          retryNow = true;
        } else {
          fatal = (Throwable) outcome;
        }
      }
      Set<String> onlyKnownStale = new LinkedHashSet<>(unrecorded);
      onlyKnownStale.removeIf(s -> data.health().isDown(s));
      if (!onlyKnownStale.isEmpty() && fatal == null && !busy && !refreshedStale) {
        // skipped only because this client remembers them stale, and a server has no record of it:
        // recovery may have rebuilt them; ask the meta group before recording them stale again
        refreshedStale = true;
        recycle(updates);
        return data.unlock(file, granted, lock)
            .thenCompose(v -> meta.call(MetaRequestProto.newBuilder().setGetAttr(file.lookup())))
            .thenCompose(
                r -> {
                  file.adopt(r);
                  return run(deadline, attempt + 1);
                });
      }
      if (!learnedStale.isEmpty() && fatal == null) {
        // another writer went around these servers: their shards of this file are stale, so
        // neither read nor write them; plan again without them
        file.learnStale(learnedStale);
        retryNow = true;
      }
      if (fatal != null || busy || retryNow) {
        recycle(updates); // nothing was sent: the next attempt plans anew
        CompletableFuture<Void> released = data.unlock(file, granted, lock);
        if (fatal != null) {
          Throwable f = fatal;
          return released.thenCompose(v -> CompletableFuture.failedFuture(f));
        }
        if (busy) {
          counters.lockRefusals.incrementAndGet();
          if (System.nanoTime() - deadline > 0) {
            return released.thenCompose(
                v ->
                    CompletableFuture.failedFuture(
                        new TesseraException(
                            StatusProto.BUSY,
                            "stripes "
                                + from
                                + "-"
                                + (to - 1)
                                + " of file "
                                + file.fileId()
                                + " stayed locked by other writers for "
                                + (2 * lease().toSeconds())
                                + " s")));
          }
          return released.thenComposeAsync(
              v -> run(deadline, attempt + 1), DataClient.afterLockRefusal(attempt));
        }
        if (attempt > 2 * layout.width()) {
          return released.thenCompose(
              v ->
                  CompletableFuture.failedFuture(
                      new TesseraException(
                          StatusProto.UNAVAILABLE,
                          "stripes "
                              + from
                              + "-"
                              + (to - 1)
                              + " of file "
                              + file.fileId()
                              + " kept losing servers")));
        }
        return released.thenCompose(v -> run(deadline, attempt + 1));
      }
      FaultPoints.reach(BETWEEN_PHASES, faultScope);
      long end = Math.min(pos + len, to * layout.stripeDataBytes());
      long stamp = epoch;
      CompletableFuture<Void> ready =
          CompletableFuture.runAsync(() -> updates.forEach(u -> u.encode(codec(layout))), coding)
              .thenCompose(v -> markStale(file, skipped, !unrecorded.isEmpty(), stamp))
              .thenCompose(v -> extendTo.extendTo(end, stamp, lockedSince));
      // nothing was written yet: a failure here (the meta group unreachable) frees the locks at
      // once
      return ready
          .handle((v, e) -> e)
          .thenCompose(
              e -> {
                if (e == null) {
                  return phase2(lock, lockedOn, skipped, updates, stamp);
                }
                recycle(updates);
                CompletableFuture<Void> released = data.unlock(file, granted, lock);
                if (Failures.cause(e) instanceof TesseraException te
                    && te.status() == StatusProto.SNAPSHOT_PASSED
                    && System.nanoTime() - deadline < 0) {
                  // a snapshot at the locks' epoch was committed before the size record: write
                  // again after it
                  counters.snapshotRetries.incrementAndGet();
                  return released.thenCompose(x -> run(deadline, attempt + 1));
                }
                return released.thenCompose(x -> CompletableFuture.<Void>failedFuture(e));
              });
    }

    private CompletableFuture<Void> phase2(
        StripeLockProto lock,
        List<String> lockedOn,
        Set<String> skipped,
        List<StripeUpdate> updates,
        long epoch) {
      // the skipped servers were recorded as stale in the meta group above, while the locks are
      // held
      Map<String, WriteBatch> writes = new LinkedHashMap<>();
      for (String s : lockedOn) {
        writes.put(
            s,
            new WriteBatch(
                WriteShardsRequestProto.newBuilder()
                    .setUnlock(lock)
                    .setSync(sync)
                    .addAllMissingServers(skipped)
                    .setStaleMarked(!skipped.isEmpty())
                    .setEpoch(epoch),
                16));
      }
      for (StripeUpdate u : updates) {
        long stripe = u.stripe();
        for (StripeUpdate.Write w :
            u.writes(
                unit ->
                    !bad.contains(stripe, unit)
                        && !skipped.contains(layout.serverOf(stripe, unit)))) {
          writes
              .get(layout.serverOf(stripe, w.unit()))
              .add(
                  file.fileId(),
                  stripe,
                  w.unit(),
                  w.offset(),
                  w.from(),
                  w.at(),
                  w.length(),
                  w.offset() == 0 && w.length() == layout.stripeUnit());
        }
      }
      Map<String, CompletableFuture<Throwable>> calls = new LinkedHashMap<>();
      Runnable tear = FaultPoints.armed(MID_PHASE2, faultScope);
      int firstPart = tear == null ? lockedOn.size() : lockedOn.size() / 2;
      boolean wholeStripes = updates.stream().allMatch(StripeUpdate::replacesStripe);
      for (String server : lockedOn.subList(0, firstPart)) {
        calls.put(server, phase2To(server, writes.get(server), wholeStripes));
      }
      CompletableFuture<Void> sent = CompletableFuture.completedFuture(null);
      if (tear != null) {
        // fault injection: the rest goes out only once the first half stored its units
        sent =
            CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new))
                .thenRun(
                    () -> {
                      tear.run();
                      for (String server : lockedOn.subList(firstPart, lockedOn.size())) {
                        calls.put(server, phase2To(server, writes.get(server), wholeStripes));
                      }
                    });
      }
      return sent.thenCompose(
              v -> CompletableFuture.allOf(calls.values().toArray(CompletableFuture[]::new)))
          .thenCompose(v -> afterPhase2(calls, lock, skipped, updates));
    }

    /**
     * {@code wholeStripes}: the group replaces its stripes whole (the servers may store them past
     * their caches).
     */
    private CompletableFuture<Throwable> phase2To(
        String server, WriteBatch write, boolean wholeStripes) {
      return data.callForOutcome(
          server,
          file.request(layout).setWrite(write.request().setWholeStripes(wholeStripes)),
          write.payload());
    }

    /**
     * Servers lost during phase 2: fine while every stripe still has k units stored; record them.
     */
    private CompletableFuture<Void> afterPhase2(
        Map<String, CompletableFuture<Throwable>> calls,
        StripeLockProto lock,
        Set<String> skipped,
        List<StripeUpdate> updates) {
      renewal.stop(); // every server answered phase 2: it released the lock, or lost it
      List<String> failed = new ArrayList<>();
      List<String> stored = new ArrayList<>();
      for (Map.Entry<String, CompletableFuture<Throwable>> e : calls.entrySet()) {
        Throwable t = e.getValue().join();
        if (t == null) {
          stored.add(e.getKey());
        } else if (t instanceof ServerDownException) {
          failed.add(e.getKey());
        } else if (t instanceof TesseraException te && te.status() == StatusProto.LOCK_LOST) {
          return lockLost(lock, e.getKey(), updates);
        } else {
          return CompletableFuture.failedFuture(t);
        }
      }
      locks.held(System.nanoTime() - lockedSince);
      if (failed.isEmpty()) {
        recycle(updates); // every server answered: no request holds the parity any more
        return CompletableFuture.completedFuture(null);
      }
      Set<String> missing = new LinkedHashSet<>(skipped);
      missing.addAll(failed);
      // the servers that missed the write are read around; every stripe needs k others
      if (layout.width() - missing.size() < layout.dataUnits()) {
        return CompletableFuture.failedFuture(
            new TesseraException(
                StatusProto.UNAVAILABLE,
                "write to file "
                    + file.fileId()
                    + " left only "
                    + (layout.width() - missing.size())
                    + " of its "
                    + layout.width()
                    + " servers up to date; it needs "
                    + layout.dataUnits()
                    + " (lost: "
                    + String.join(", ", failed)
                    + ")"));
      }
      // the units landed already: the record cannot be refused, only made
      return ParityWriter.this
          .markStale(file, missing, true, SizeExtension.UNSTAMPED)
          .thenCompose(
              v -> {
                List<CompletableFuture<?>> marks = new ArrayList<>();
                for (String s : stored) {
                  WriteShardsRequestProto.Builder w =
                      WriteShardsRequestProto.newBuilder()
                          .setUnlock(lock)
                          .addAllMissingServers(missing)
                          .setStaleMarked(true);
                  marks.add(
                      data.call(s, file.request(layout).setWrite(w), null)
                          .thenAccept(r -> r.payload().release()));
                }
                return CompletableFuture.allOf(marks.toArray(CompletableFuture[]::new));
              });
    }

    /**
     * A server refused phase 2: the lock's lease ran out before the write arrived and recovery
     * repaired the stripes. Servers that still held the lock may have stored their units, so the
     * stripes' parity is recomputed from their data (as recovery does for orphans). Nothing of the
     * write is acknowledged, so it is written again whole, with a lease that covers how long this
     * one took (a loaded cluster's queues, see {@link StripeLocks#lease()}); after {@link
     * #MAX_LOCKS_LOST} such attempts it fails.
     */
    private CompletableFuture<Void> lockLost(
        StripeLockProto lock, String server, List<StripeUpdate> updates) {
      locks.held(System.nanoTime() - lockedSince);
      RepairStripesRequestProto.Builder repair =
          io.tessera.common.proto.RepairStripesRequestProto.newBuilder().setFileId(file.fileId());
      for (long s = lock.getFirstStripe(); s < lock.getFirstStripe() + lock.getStripeCount(); s++) {
        repair.addStripes(s);
      }
      TesseraException failure =
          new TesseraException(
              StatusProto.LOCK_LOST,
              "write to file "
                  + file.fileId()
                  + " took longer than its stripe lock's lease ("
                  + lease().toMillis()
                  + " ms, tessera.client.lock-lease) and was"
                  + " refused by data server "
                  + server
                  + "; nothing of it is acknowledged: write it again");
      return meta.call(MetaRequestProto.newBuilder().setRepairStripes(repair))
          .handle((r, e) -> e)
          .thenCompose(
              e -> {
                recycle(updates);
                if (e == null && ++locksLost <= MAX_LOCKS_LOST) {
                  counters.lockLossRetries.incrementAndGet();
                  return run(System.nanoTime() + 2 * lease().toNanos(), 0);
                }
                return CompletableFuture.<Void>failedFuture(failure);
              });
    }

    private void recycle(List<StripeUpdate> updates) {
      updates.forEach(u -> u.recycle(parityBuffers));
    }
  }

  private record CorruptUnits(List<Object> units) {}

  /**
   * A lock granted at {@code epoch}; {@code dirtyServers}: servers the granting server logged
   * writes around for this file.
   */
  private record Granted(Set<String> dirtyServers, long epoch) {}
}
