package io.tessera.data.lock;

import com.google.protobuf.ByteString;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.data.store.ShardStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stripe locks this data server has granted: per file, ranges of stripes with their
 * owner (client id and operation), lease expiry and grant time. Locks are persisted in the
 * shard store so that a restarted server still guards, until their leases run out, the
 * stripes whose writers may be half-way through.
 *
 * <p>A lock whose lease ran out belongs to a writer that stopped between its phases or half-way
 * through phase 2 (an orphan): its stripes' parity may not match their data. Writers are refused
 * (BUSY) until the recovery coordinator, which learns of orphans from heartbeats, takes the lock
 * over, recomputes the parity from the data units and releases it.
 */
public final class StripeLockTable {
  private static final Logger LOG = LoggerFactory.getLogger(StripeLockTable.class);
  /** Most stripes one lock may cover. */
  static final int MAX_STRIPES = 1 << 20;

  /** What {@link #tryLock} did. */
  public sealed interface Outcome permits Granted, Refused {}

  public record Granted(byte[] key) implements Outcome {}

  /** Another owner holds an overlapping lock; {@code holder} describes it for the writer's log. */
  public record Refused(String holder) implements Outcome {}

  private record Held(byte[] key, long fileId, long first, long end, ByteString client, long operation,
      long expiresAtNanos, long grantedAtMillis) {
    boolean overlaps(long a, long b) {
      return first < b && a < end;
    }

    boolean ownedBy(ByteString c, long op) {
      return client.equals(c) && operation == op;
    }

    @Override
    public String toString() {
      return "stripes [" + first + ", " + end + ") of file " + fileId + " locked since " + grantedAtMillis
          + " by operation " + operation;
    }
  }

  private final ShardStore store;
  private final long maxLeaseNanos;
  private final LongSupplier nanoClock;
  private final Map<Long, List<Held>> byFile = new HashMap<>();
  /** Locks whose phase-2 write is being stored: not taken over, even once expired. */
  private final java.util.Set<Held> writing = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
  private long orphansTakenOver;

  public StripeLockTable(ShardStore store, Duration maxLease, LongSupplier nanoClock) throws IOException {
    this.store = store;
    this.maxLeaseNanos = maxLease.toNanos();
    this.nanoClock = nanoClock;
    reload();
  }

  /** Grants the lock unless another owner's lock overlaps it (an orphan: unless {@code recovery}). */
  public synchronized Outcome tryLock(StripeLockProto lock, ByteString client, boolean recovery) throws IOException {
    validate(lock);
    long first = lock.getFirstStripe();
    long end = first + lock.getStripeCount();
    long now = nanoClock.getAsLong();
    List<Held> held = byFile.computeIfAbsent(lock.getFileId(), f -> new ArrayList<>());
    for (Iterator<Held> it = held.iterator(); it.hasNext(); ) {
      Held h = it.next();
      if (!h.overlaps(first, end) || h.ownedBy(client, lock.getOperation())) {
        continue;
      }
      // a coordinator runs one repair at a time: an overlapping recovery lock is one left by a failed step
      boolean deadCoordinator = recovery && RecoveryIdentity.isRecovery(h.client);
      if ((now - h.expiresAtNanos < 0 && !deadCoordinator) || writing.contains(h)) {
        return new Refused(h.toString());
      }
      if (!recovery) {
        return new Refused(h + " (its writer died holding it; waiting for recovery to repair the stripes' parity)");
      }
      orphansTakenOver++;
      LOG.info("Orphan lock on {} taken over by recovery to repair the stripes' parity", h);
      store.removeLock(h.key);
      it.remove();
    }
    byte[] key = key(lock, client);
    held.removeIf(h -> h.ownedBy(client, lock.getOperation()) && h.first == first);
    long lease = Math.min(maxLeaseNanos, Duration.ofMillis(Math.max(1, lock.getLeaseMs())).toNanos());
    long grantedAt = System.currentTimeMillis();
    held.add(new Held(key, lock.getFileId(), first, end, client, lock.getOperation(), now + lease, grantedAt));
    store.putLock(key, ByteBuffer.allocate(8 + 8).putLong(grantedAt).putLong(lease).array());
    return new Granted(key);
  }

  /**
   * A phase-2 write under {@code lock} is about to be stored: true if this server still holds
   * the lock for the client (even past its lease: nobody took it over), which then cannot be
   * taken over until {@link #forget} or {@link #writeFailed}; false if it is gone (recovery
   * took it over and repaired the stripes, or it was never granted): the write must not land.
   */
  public synchronized boolean beginWrite(StripeLockProto lock, ByteString client) {
    List<Held> held = byFile.get(lock.getFileId());
    if (held == null) {
      return false;
    }
    for (Held h : held) {
      if (h.ownedBy(client, lock.getOperation()) && h.first == lock.getFirstStripe()) {
        writing.add(h);
        return true;
      }
    }
    return false;
  }

  /** The write begun with {@link #beginWrite} was not stored: the lock stays held as it was. */
  public synchronized void writeFailed(StripeLockProto lock, ByteString client) {
    writing.removeIf(h -> h.fileId == lock.getFileId() && h.ownedBy(client, lock.getOperation())
        && h.first == lock.getFirstStripe());
  }

  /** Forgets a lock and removes it from the store: the writer released it without writing. */
  public void release(StripeLockProto lock, ByteString client) throws IOException {
    validate(lock);
    if (forget(lock, client)) {
      store.removeLock(key(lock, client));
    }
  }

  /**
   * Forgets a lock whose removal from the store was part of a write's batch.
   *
   * @return whether it was still held (false: its lease ran out and another writer took over)
   */
  public synchronized boolean forget(StripeLockProto lock, ByteString client) {
    List<Held> held = byFile.get(lock.getFileId());
    if (held == null) {
      return false;
    }
    boolean removed = held.removeIf(h -> {
      boolean mine = h.ownedBy(client, lock.getOperation()) && h.first == lock.getFirstStripe();
      if (mine) {
        writing.remove(h);
      }
      return mine;
    });
    if (held.isEmpty()) {
      byFile.remove(lock.getFileId());
    }
    return removed;
  }

  /** Locks whose lease has not run out: writers that may still be between their phases. */
  public synchronized int unexpiredCount() {
    long now = nanoClock.getAsLong();
    int n = 0;
    for (List<Held> held : byFile.values()) {
      for (Held h : held) {
        if (now - h.expiresAtNanos < 0) {
          n++;
        }
      }
    }
    return n;
  }

  /** The longest-held unexpired lock, described for a log line; "none" when there is none. */
  public synchronized String oldestHolder() {
    long now = nanoClock.getAsLong();
    return byFile.values().stream().flatMap(List::stream).filter(h -> now - h.expiresAtNanos < 0)
        .min(java.util.Comparator.comparingLong(Held::grantedAtMillis)).map(Held::toString).orElse("none");
  }

  /** Locks currently held, expired or not. */
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
          out.add(StripeLockProto.newBuilder().setFileId(h.fileId).setFirstStripe(h.first)
              .setStripeCount((int) (h.end - h.first)).build());
        }
      }
    }
    return out;
  }

  /** How many orphan locks recovery has taken over since start. */
  public synchronized long orphansTakenOver() {
    return orphansTakenOver;
  }

  /** The store key of a lock: {@code fileId | first stripe | client id | operation}. */
  public static byte[] key(StripeLockProto lock, ByteString client) {
    validate(lock);
    return ByteBuffer.allocate(8 + 8 + 2 + client.size() + 8 + 4).putLong(lock.getFileId())
        .putLong(lock.getFirstStripe()).putShort((short) client.size()).put(client.asReadOnlyByteBuffer())
        .putLong(lock.getOperation()).putInt(lock.getStripeCount()).array();
  }

  /** Rebuilds the table from the store after a restart: every lock gets its full lease again. */
  private void reload() throws IOException {
    long now = nanoClock.getAsLong();
    for (byte[][] entry : store.locks()) {
      ByteBuffer k = ByteBuffer.wrap(entry[0]);
      ByteBuffer v = ByteBuffer.wrap(entry[1]);
      if (entry[0].length < 8 + 8 + 2 || entry[1].length != 16) {
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
      byFile.computeIfAbsent(fileId, f -> new ArrayList<>()).add(new Held(entry[0], fileId, first, first + count,
          ByteString.copyFrom(client), op, now + lease, grantedAt));
    }
    if (!byFile.isEmpty()) {
      LOG.info("{} stripe lock(s) held before the restart are kept until their leases run out", size());
    }
  }

  private static void validate(StripeLockProto lock) {
    if (lock.getStripeCount() < 1 || lock.getStripeCount() > MAX_STRIPES || lock.getFirstStripe() < 0
        || lock.getFirstStripe() + lock.getStripeCount() < 0) {
      throw new IllegalArgumentException("a lock must cover 1 to " + MAX_STRIPES + " stripes from a stripe >= 0; got "
          + Integer.toUnsignedString(lock.getStripeCount()) + " from " + Long.toUnsignedString(lock.getFirstStripe()));
    }
  }
}
