package io.tessera.data.lock;

import com.google.protobuf.ByteString;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.data.store.ShardStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.ListIterator;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stripe locks this data server has granted: per file, ranges of stripes with their owner
 * (client id and operation), lease expiry and grant time. Locks are persisted in the shard store so
 * that a restarted server still guards, until their leases run out, the stripes whose writers may
 * be half-way through.
 *
 * <p>A lock whose lease ran out belongs to a writer that stopped between its phases or half-way
 * through phase 2 (an orphan): its stripes' parity may not match their data. Writers are refused
 * (BUSY) until the recovery coordinator, which learns of orphans from heartbeats, takes the lock
 * over, recomputes the parity from the data units and releases it.
 *
 * <p>Each lock remembers the epoch this server was at when it granted it. A writer stamps its phase
 * 2 with the newest grant epoch of its servers, so a snapshot committed while it holds its locks
 * holds its write whole: readers of that snapshot wait ({@link #whenLanded}) until the writes of
 * locks granted at or below its epoch have landed.
 *
 * <p>Over 500 lines because grants, leases, writes in progress, snapshot landing waits, orphans and
 * the takeover of a new coordinator's locks all change one table under one monitor; splitting them
 * would split the monitor.
 */
public final class StripeLockTable {
  private static final Logger LOG = LoggerFactory.getLogger(StripeLockTable.class);

  /** Most stripes one lock may cover. */
  static final int MAX_STRIPES = 1 << 20;

  /** What {@link #tryLock} did. */
  public sealed interface Outcome permits Granted, Refused {}

  /** The lock is held; {@code epoch}: this server's epoch when it granted it. */
  public record Granted(byte[] key, long epoch) implements Outcome {}

  /** Another owner holds an overlapping lock; {@code holder} describes it for the writer's log. */
  public record Refused(String holder) implements Outcome {}

  /**
   * {@code beforeRestart}: granted before this server last started (reloaded from disk). {@code
   * writerRefused}: a writer was refused because of this lock, or (a recovery lock) the file was
   * busy with writers when it was granted; the holder learns it on release.
   */
  private record Held(
      byte[] key,
      long fileId,
      long first,
      long end,
      ByteString client,
      long operation,
      long expiresAtNanos,
      long leaseNanos,
      long renewableUntilNanos,
      long grantedAtMillis,
      long epoch,
      boolean copyOnly,
      boolean beforeRestart,
      AtomicBoolean writerRefused) {
    boolean overlaps(long a, long b) {
      return first < b && a < end;
    }

    /** Recovery's writes take the server's epoch when they land, not one of their own. */
    boolean recovery() {
      return RecoveryIdentity.isRecovery(client);
    }

    boolean ownedBy(ByteString c, long op) {
      return client.equals(c) && operation == op;
    }

    Held expiringAt(long nanos) {
      return new Held(
          key,
          fileId,
          first,
          end,
          client,
          operation,
          nanos,
          leaseNanos,
          renewableUntilNanos,
          grantedAtMillis,
          epoch,
          copyOnly,
          beforeRestart,
          writerRefused);
    }

    @Override
    public String toString() {
      return "stripes ["
          + first
          + ", "
          + end
          + ") of file "
          + fileId
          + " locked since "
          + grantedAtMillis
          + " by operation "
          + operation;
    }
  }

  private final ShardStore store;
  private final long maxLeaseNanos;
  private final long maxHoldNanos;
  private final LongSupplier nanoClock;
  private final Map<Long, List<Held>> byFile = new HashMap<>();
  private final RecentWriters recentWriters = new RecentWriters();
  private final LandedWrites landed = new LandedWrites();

  /** Locks whose phase-2 write is being stored: not taken over, even once expired. */
  private final Set<Held> writing = Collections.newSetFromMap(new IdentityHashMap<>());

  /** Snapshot reads waiting for writes at or below their epoch to land. */
  private final List<Waiter> waiters = new ArrayList<>();

  private long orphansTakenOver;
  private long grants;
  private long refusals;

  /**
   * @param maxLease the longest lease a lock is granted, whatever its writer asks for
   * @param maxHold how long after its grant renewals can keep a lock
   */
  public StripeLockTable(
      ShardStore store, Duration maxLease, Duration maxHold, LongSupplier nanoClock)
      throws IOException {
    this.store = store;
    this.maxLeaseNanos = maxLease.toNanos();
    this.maxHoldNanos = Math.max(maxHold.toNanos(), maxLeaseNanos);
    this.nanoClock = nanoClock;
    reload();
  }

  /**
   * Grants the lock unless another owner's lock overlaps it (an orphan: unless {@code recovery});
   * {@code epoch} is this server's epoch now.
   */
  public Outcome tryLock(StripeLockProto lock, ByteString client, boolean recovery, long epoch)
      throws IOException {
    return tryLock(lock, client, recovery, false, epoch);
  }

  /**
   * Like {@link #tryLock(StripeLockProto, ByteString, boolean, long)}; {@code unitsStaleHere}: the
   * recovery coordinator's copy-only lock of a rebuild, sent because this server's units of the
   * file are stale (it rebuilds them, or another server's while these wait their turn). It takes
   * over writers' locks held since before this server's restart: their writers went around this
   * server when it went down (they will not write here under them), and the units they guard are
   * stale. Without this a rebuild waited out the writer's whole lease.
   */
  public synchronized Outcome tryLock(
      StripeLockProto lock, ByteString client, boolean recovery, boolean unitsStaleHere, long epoch)
      throws IOException {
    validate(lock);
    long first = lock.getFirstStripe();
    long end = first + lock.getStripeCount();
    long now = nanoClock.getAsLong();
    boolean stripesBusy = recovery && recentWriters.busy(lock.getFileId(), first, end, now);
    if (!recovery) {
      recentWriters.asked(lock.getFileId(), first, end, now);
    }
    List<Held> held = byFile.computeIfAbsent(lock.getFileId(), f -> new ArrayList<>());
    for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
      Held h = it.next();
      if (!h.overlaps(first, end) || h.ownedBy(client, lock.getOperation())) {
        continue;
      }
      if (recovery
          && unitsStaleHere
          && lock.getCopyOnly()
          && h.beforeRestart
          && !h.recovery()
          && !writing.contains(h)) {
        LOG.info(
            "{}, held since before this server's restart, taken over by a rebuild (its units here are stale)",
            h);
        store.removeLock(h.key);
        it.remove();
        continue;
      }
      // a coordinator runs one repair at a time: an overlapping recovery lock is one left by a
      // failed step
      boolean deadCoordinator = recovery && RecoveryIdentity.isRecovery(h.client);
      if ((now - h.expiresAtNanos < 0 && !deadCoordinator) || writing.contains(h)) {
        if (!recovery) {
          h.writerRefused.set(true);
        }
        refusals++;
        return new Refused(h.toString());
      }
      if (!recovery) {
        refusals++;
        return new Refused(
            h
                + " (its writer died holding it; waiting for recovery to repair the stripes' parity)");
      }
      orphansTakenOver++;
      LOG.info("Orphan lock on {} taken over by recovery to repair the stripes' parity", h);
      store.removeLock(h.key);
      it.remove();
    }
    byte[] key = key(lock, client);
    held.removeIf(h -> h.ownedBy(client, lock.getOperation()) && h.first == first);
    long lease =
        Math.min(maxLeaseNanos, Duration.ofMillis(Math.max(1, lock.getLeaseMs())).toNanos());
    long grantedAt = System.currentTimeMillis();
    held.add(
        new Held(
            key,
            lock.getFileId(),
            first,
            end,
            client,
            lock.getOperation(),
            now + lease,
            lease,
            now + maxHoldNanos,
            grantedAt,
            epoch,
            recovery && lock.getCopyOnly(),
            false,
            new AtomicBoolean(stripesBusy)));
    store.putLock(
        key,
        ByteBuffer.allocate(8 + 8 + 8).putLong(grantedAt).putLong(lease).putLong(epoch).array());
    wakeWaiters();
    grants++;
    return new Granted(key, epoch);
  }

  /**
   * Extends a lock its writer still waits under by its lease from now (never past {@code maxHold}
   * after the grant): a writer that renews is alive, however long the cluster's queues keep it.
   * Also a lock already past its lease, as long as recovery has not taken it over.
   *
   * @return whether this server still holds the lock for {@code client}
   */
  public synchronized boolean renew(StripeLockProto lock, ByteString client) {
    validate(lock);
    List<Held> held = byFile.get(lock.getFileId());
    if (held == null) {
      return false;
    }
    long now = nanoClock.getAsLong();
    for (ListIterator<Held> it = held.listIterator(); it.hasNext(); ) {
      Held h = it.next();
      if (h.ownedBy(client, lock.getOperation()) && h.first == lock.getFirstStripe()) {
        long until = now + Math.min(h.leaseNanos, h.renewableUntilNanos - now);
        // a lock being written is kept anyway, and is known to the write by identity
        if (!writing.contains(h) && until - h.expiresAtNanos > 0) {
          it.set(h.expiringAt(until));
        }
        return true;
      }
    }
    return false;
  }

  /**
   * A phase-2 write under {@code lock} is about to be stored: the lock's grant epoch if this server
   * still holds it for the client (even past its lease: nobody took it over), which then cannot be
   * taken over until {@link #forget} or {@link #endWrite}; empty if it is gone (recovery took it
   * over and repaired the stripes, or it was never granted): the write must not land.
   */
  public synchronized OptionalLong beginWrite(StripeLockProto lock, ByteString client) {
    List<Held> held = byFile.get(lock.getFileId());
    if (held == null) {
      return OptionalLong.empty();
    }
    for (Held h : held) {
      if (h.ownedBy(client, lock.getOperation()) && h.first == lock.getFirstStripe()) {
        writing.add(h);
        return OptionalLong.of(h.epoch);
      }
    }
    return OptionalLong.empty();
  }

  /**
   * The write begun with {@link #beginWrite} is over without releasing the lock (it was not stored,
   * or it was a guarded write that keeps its lock): the lock stays held as it was.
   */
  public synchronized void endWrite(StripeLockProto lock, ByteString client) {
    writing.removeIf(
        h ->
            h.fileId == lock.getFileId()
                && h.ownedBy(client, lock.getOperation())
                && h.first == lock.getFirstStripe());
  }

  /**
   * Whether a writer asked for stripes overlapping {@code lock} while the client held it and was
   * refused, or (a recovery lock) asked for any of its stripes in the second before it was granted
   * ({@link RecentWriters}); false once the lock is gone. Asked before the lock is released.
   */
  public synchronized boolean writersRefused(StripeLockProto lock, ByteString client) {
    List<Held> held = byFile.get(lock.getFileId());
    return held != null
        && held.stream()
            .anyMatch(
                h ->
                    h.ownedBy(client, lock.getOperation())
                        && h.first == lock.getFirstStripe()
                        && h.writerRefused.get());
  }

  /** Forgets a lock and removes it from the store: the writer released it without writing. */
  public void release(StripeLockProto lock, ByteString client) throws IOException {
    validate(lock);
    if (drop(lock, client)) {
      store.removeLock(key(lock, client));
    }
  }

  /**
   * Forgets a lock whose removal from the store was part of a write's batch.
   *
   * @return whether it was still held (false: its lease ran out and another writer took over)
   */
  public synchronized boolean forget(StripeLockProto lock, ByteString client) {
    boolean removed = drop(lock, client);
    if (removed) {
      landed.landed(key(lock, client));
    }
    return removed;
  }

  private synchronized boolean drop(StripeLockProto lock, ByteString client) {
    List<Held> held = byFile.get(lock.getFileId());
    if (held == null) {
      return false;
    }
    boolean removed =
        held.removeIf(
            h -> {
              boolean mine =
                  h.ownedBy(client, lock.getOperation()) && h.first == lock.getFirstStripe();
              if (mine) {
                writing.remove(h);
              }
              return mine;
            });
    if (held.isEmpty()) {
      byFile.remove(lock.getFileId());
    }
    if (removed) {
      wakeWaiters();
    }
    return removed;
  }

  /**
   * Whether a phase-2 write under {@code lock} landed here already (a resend of it finds the lock
   * gone, and is answered as it was).
   */
  public synchronized boolean landedAlready(StripeLockProto lock, ByteString client) {
    return landed.contains(key(lock, client));
  }

  /**
   * Unexpired locks a snapshot must wait for: recovery's, whose writes take the server's epoch when
   * they land. Writers' locks need no wait: their writes carry their grant epoch.
   */
  public synchronized int unexpiredRecoveryLocks() {
    long now = nanoClock.getAsLong();
    return (int)
        byFile.values().stream()
            .flatMap(List::stream)
            .filter(h -> h.recovery() && now - h.expiresAtNanos < 0)
            .count();
  }

  /**
   * The longest-held unexpired recovery lock, described for a log line; "none" when there is none.
   */
  public synchronized String oldestRecoveryHolder() {
    long now = nanoClock.getAsLong();
    return byFile.values().stream()
        .flatMap(List::stream)
        .filter(h -> h.recovery() && now - h.expiresAtNanos < 0)
        .min(Comparator.comparingLong(Held::grantedAtMillis))
        .map(Held::toString)
        .orElse("none");
  }

  /**
   * Completes once no writer's lock granted at or below {@code epoch} covers any of the ranges'
   * stripes: a read of the snapshot at {@code epoch} then sees every write that snapshot holds,
   * whole. (A lock recovery took over is not waited for: its writer is gone.)
   */
  public synchronized CompletableFuture<Void> whenLanded(List<ShardRangeProto> ranges, long epoch) {
    Waiter w = new Waiter(ranges, epoch, new CompletableFuture<>());
    if (!pending(w)) {
      return CompletableFuture.completedFuture(null);
    }
    waiters.add(w);
    w.landed.whenComplete(
        (v, e) -> {
          synchronized (this) {
            waiters.remove(w);
          }
        });
    return w.landed;
  }

  /**
   * Completes once no writer's lock granted at or below {@code epoch} is held on any file: a scan
   * of the versions written up to {@code epoch} then sees every write of that snapshot.
   */
  public synchronized CompletableFuture<Void> whenAllLanded(long epoch) {
    return whenLanded(null, epoch);
  }

  /** {@code ranges} null: every file. */
  private record Waiter(List<ShardRangeProto> ranges, long epoch, CompletableFuture<Void> landed) {}

  private boolean pending(Waiter w) {
    if (w.ranges == null) {
      return byFile.values().stream()
          .flatMap(List::stream)
          .anyMatch(h -> !h.recovery() && h.epoch <= w.epoch);
    }
    for (ShardRangeProto r : w.ranges) {
      List<Held> held = byFile.get(r.getFileId());
      if (held == null) {
        continue;
      }
      for (Held h : held) {
        if (!h.recovery() && h.epoch <= w.epoch && h.overlaps(r.getStripe(), r.getStripe() + 1)) {
          return true;
        }
      }
    }
    return false;
  }

  private void wakeWaiters() {
    if (waiters.isEmpty()) {
      return;
    }
    List<Waiter> done = new ArrayList<>();
    for (Waiter w : waiters) {
      if (!pending(w)) {
        done.add(w);
      }
    }
    waiters.removeAll(done);
    // completed outside this monitor's bookkeeping: the readers' continuations run on their own
    // executor
    done.forEach(w -> w.landed.complete(null));
  }

  /** Locks granted since this server started. */
  public synchronized long grants() {
    return grants;
  }

  /** Lock requests refused since this server started (another owner held an overlapping lock). */
  public synchronized long refusals() {
    return refusals;
  }

  public synchronized int size() {
    return byFile.values().stream().mapToInt(List::size).sum();
  }

  /** Expired locks (their writers died between or during the phases), at most {@code limit}. */
  public synchronized List<StripeLockProto> orphans(int limit) {
    long now = nanoClock.getAsLong();
    List<StripeLockProto> out = new ArrayList<>();
    for (List<Held> held : byFile.values()) {
      for (Held h : held) {
        if (now - h.expiresAtNanos >= 0 && out.size() < limit) {
          out.add(
              StripeLockProto.newBuilder()
                  .setFileId(h.fileId)
                  .setFirstStripe(h.first)
                  .setStripeCount((int) (h.end - h.first))
                  .build());
        }
      }
    }
    return out;
  }

  /**
   * The meta leader's recovery coordinator locks as {@code coordinator}: a recovery lock any other
   * holds is a dead coordinator's (its leader died mid-step), and writers of its stripes should not
   * wait out its lease. A rebuild's lock (copy only) is dropped at once: its holder wrote only to a
   * server that serves no reads, and the file is rebuilt again from the start. Any other (a parity
   * repair's, a move's) becomes an orphan now, for the coordinator to repair and release.
   */
  public synchronized void learnCoordinator(ByteString coordinator) throws IOException {
    if (coordinator.isEmpty()) {
      return;
    }
    long now = nanoClock.getAsLong();
    for (List<Held> held : byFile.values()) {
      for (ListIterator<Held> it = held.listIterator(); it.hasNext(); ) {
        Held h = it.next();
        if (!h.recovery() || h.client.equals(coordinator) || writing.contains(h)) {
          continue;
        }
        if (h.copyOnly) {
          LOG.info(
              "Dropped {}: its recovery coordinator is gone (a new meta leader rebuilds the file again)",
              h);
          store.removeLock(h.key);
          it.remove();
        } else if (now - h.expiresAtNanos < 0) {
          LOG.info("{} is an orphan now: its recovery coordinator is gone", h);
          it.set(h.expiringAt(now));
        }
      }
    }
    wakeWaiters();
  }

  /** How many orphan locks recovery has taken over since start. */
  public synchronized long orphansTakenOver() {
    return orphansTakenOver;
  }

  /** The store key of a lock: {@code fileId | first stripe | client id | operation}. */
  public static byte[] key(StripeLockProto lock, ByteString client) {
    validate(lock);
    return ByteBuffer.allocate(8 + 8 + 2 + client.size() + 8 + 4)
        .putLong(lock.getFileId())
        .putLong(lock.getFirstStripe())
        .putShort((short) client.size())
        .put(client.asReadOnlyByteBuffer())
        .putLong(lock.getOperation())
        .putInt(lock.getStripeCount())
        .array();
  }

  /** Rebuilds the table from the store after a restart: every lock gets its full lease again. */
  private void reload() throws IOException {
    long now = nanoClock.getAsLong();
    for (byte[][] entry : store.locks()) {
      ByteBuffer k = ByteBuffer.wrap(entry[0]);
      ByteBuffer v = ByteBuffer.wrap(entry[1]);
      if (entry[0].length < 8 + 8 + 2 || (entry[1].length != 16 && entry[1].length != 24)) {
        store.removeLock(entry[0]);
        continue;
      }
      long fileId = k.getLong();
      long first = k.getLong();
      int clientLength = k.getShort();
      if (clientLength < 0 || k.remaining() != clientLength + 12) {
        store.removeLock(entry[0]);
        continue;
      }
      byte[] client = new byte[clientLength];
      k.get(client);
      long op = k.getLong();
      int count = k.getInt();
      long grantedAt = v.getLong();
      long lease = v.getLong();
      // a lock persisted before grant epochs were kept: its writer stamps no epoch, so the current
      // one
      long epoch = v.remaining() >= 8 ? v.getLong() : store.epoch();
      byFile
          .computeIfAbsent(fileId, f -> new ArrayList<>())
          .add(
              new Held(
                  entry[0],
                  fileId,
                  first,
                  first + count,
                  // not kept: repaired, to be safe
                  ByteString.copyFrom(client),
                  op,
                  now + lease,
                  lease,
                  now + maxHoldNanos,
                  grantedAt,
                  epoch,
                  false,
                  true,
                  new AtomicBoolean()));
    }
    if (!byFile.isEmpty()) {
      LOG.info(
          "{} stripe lock(s) held before the restart are kept until their leases run out or a rebuild of a "
              + "file whose units here are stale takes them over",
          size());
    }
  }

  private static void validate(StripeLockProto lock) {
    if (lock.getStripeCount() < 1
        || lock.getStripeCount() > MAX_STRIPES
        || lock.getFirstStripe() < 0
        || lock.getFirstStripe() + lock.getStripeCount() < 0) {
      throw new IllegalArgumentException(
          "a lock must cover 1 to "
              + MAX_STRIPES
              + " stripes from a stripe >= 0; got "
              + Integer.toUnsignedString(lock.getStripeCount())
              + " from "
              + Long.toUnsignedString(lock.getFirstStripe()));
    }
  }
}
