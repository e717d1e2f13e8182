package io.tessera.data.snapshot;

import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import io.tessera.data.store.EpochState;
import io.tessera.data.store.ShardStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gate every change to this server's shards passes, and the epoch it is stamped with.
 *
 * <ul>
 *   <li><b>Epoch unknown</b> (from start until the meta group first answers): nothing changes
 *       shards, because a snapshot may have been taken while this server was away.
 *   <li><b>Open</b>: changes run at the current epoch.
 *   <li><b>Closed</b> for a snapshot attempt (PREPARE): new stripe locks are refused (the writer
 *       backs off and retries), writes without locks wait, phase-2 writes of held locks go through.
 *       COMMIT reopens at the next epoch, ABORT at the same one.
 * </ul>
 *
 * Changes that take the epoch current when they land (unlocked writes, recovery's locked writes)
 * are counted, so that a snapshot can wait for them to {@linkplain #drained drain}; a writer's
 * phase 2 carries the epoch of its lock grants and is not counted.
 *
 * <p>A gate closed longer than its bound (the coordinator died) is resolved through the meta group:
 * see {@link #overdueAttempt}.
 */
public final class WriteGate {
  private static final Logger LOG = LoggerFactory.getLogger(WriteGate.class);

  private enum Mode {
    EPOCH_UNKNOWN,
    OPEN,
    CLOSED
  }

  private final ShardStore store;
  private final LongSupplier nanoClock;
  private final Runnable onSnapshotDeleted;
  private final Duration maxWait;
  private Mode mode = Mode.EPOCH_UNKNOWN;
  private long attempt;
  private long closedAtNanos;
  private int inFlight;
  private final List<CompletableFuture<Void>> waiting = new ArrayList<>();

  /** {@code onSnapshotDeleted} runs (outside the gate) when the retained snapshots shrink. */
  public WriteGate(
      ShardStore store, LongSupplier nanoClock, Duration maxWait, Runnable onSnapshotDeleted) {
    this.store = store;
    this.maxWait = maxWait;
    this.nanoClock = nanoClock;
    this.onSnapshotDeleted = onSnapshotDeleted;
  }

  /**
   * Admits a change that holds no stripe lock; call {@link #exit()} once it is done. While a
   * snapshot is being taken it waits (at most {@code maxWait}); before the epoch is known it is
   * refused at once.
   */
  public synchronized CompletableFuture<Void> enter() {
    switch (mode) {
      case OPEN -> {
        inFlight++;
        return CompletableFuture.completedFuture(null);
      }
      case CLOSED -> {
        CompletableFuture<Void> admitted = new CompletableFuture<>();
        waiting.add(admitted);
        return admitted
            .orTimeout(maxWait.toMillis(), TimeUnit.MILLISECONDS)
            .exceptionallyCompose(
                e ->
                    CompletableFuture.failedFuture(
                        new TesseraException(
                            StatusProto.UNAVAILABLE,
                            "the write gate stayed "
                                + "closed for a snapshot longer than "
                                + maxWait.toMillis()
                                + " ms (meta group unreachable?); retry")));
      }
      default -> {
        return CompletableFuture.failedFuture(
            new TesseraException(
                StatusProto.UNAVAILABLE,
                "the data server has not reached the meta group since it started, so it does not know the epoch to"
                    + " stamp writes with; retry shortly"));
      }
    }
  }

  public synchronized void exit() {
    inFlight--;
  }

  /**
   * Admits the phase-2 write of a held lock: only an unknown epoch holds it back. Unless {@code
   * stamped} (it carries its own epoch) it counts until {@link #exit()}.
   */
  public synchronized CompletableFuture<Void> enterWithLock(boolean stamped) {
    if (mode != Mode.EPOCH_UNKNOWN) {
      if (!stamped) {
        inFlight++;
      }
      return CompletableFuture.completedFuture(null);
    }
    return enter();
  }

  /**
   * Runs {@code grant} (taking a stripe lock) unless the gate refuses new locks: then returns null
   * and {@code refusal} names why. Atomic with {@link #close}, so a lock is either seen by the
   * drain or refused.
   */
  public synchronized <T> T grantLock(Supplier<T> grant, StringBuilder refusal) {
    switch (mode) {
      case OPEN -> {
        return grant.get();
      }
      case CLOSED -> refusal.append("a snapshot is being taken; retry shortly");
      default ->
          refusal.append("the server is starting and has not learned the epoch yet; retry shortly");
    }
    return null;
  }

  /**
   * PREPARE: closes the gate for {@code attempt} at {@code epoch}, adopting that epoch and its
   * snapshots if this server is behind (it missed a COMMIT).
   *
   * @return null when closed, else why not
   */
  public synchronized String close(long attempt, EpochState atPrepare) {
    if (mode == Mode.EPOCH_UNKNOWN) {
      return "the server is starting and has not learned the epoch yet";
    }
    if (atPrepare.epoch() < store.epoch()) {
      return "the snapshot is at epoch "
          + atPrepare.epoch()
          + " but this server is already at "
          + store.epoch();
    }
    if (atPrepare.epoch() > store.epoch()) {
      store.setEpochState(atPrepare);
    }
    mode = Mode.CLOSED;
    this.attempt = attempt;
    closedAtNanos = nanoClock.getAsLong();
    return null;
  }

  /** Whether nothing that entered the gate is still running. */
  public synchronized boolean drained() {
    return inFlight == 0;
  }

  /** COMMIT: reopens at the snapshot's successor epoch. */
  public void commit(long attempt, EpochState next) {
    learn(next, attempt);
  }

  /** ABORT (or a BUSY answer): reopens at the same epoch if still closed for {@code attempt}. */
  public synchronized void abort(long attempt) {
    if (mode == Mode.CLOSED && this.attempt == attempt) {
      open();
    }
  }

  /**
   * What the meta group said the epoch is (a heartbeat reply). {@code resolvedAttempt} is the
   * overdue attempt that heartbeat reported: the meta group has settled it, so the gate reopens at
   * whatever epoch it answered.
   */
  public void learn(EpochState told, long resolvedAttempt) {
    boolean shrank;
    synchronized (this) {
      EpochState mine = store.epochState();
      if (told.epoch() < mine.epoch() && mode != Mode.EPOCH_UNKNOWN) {
        return; // an answer older than what this server already knows
      }
      boolean settles =
          mode == Mode.EPOCH_UNKNOWN
              || (mode == Mode.CLOSED
                  && (told.epoch() > mine.epoch() || attempt == resolvedAttempt));
      if (mode == Mode.CLOSED && !settles) {
        return; // the snapshot is still being decided; the gate stays closed
      }
      shrank =
          Arrays.stream(mine.retained()).anyMatch(e -> Arrays.binarySearch(told.retained(), e) < 0);
      if (told.epoch() != mine.epoch()
          || shrank
          || told.retained().length != mine.retained().length) {
        store.setEpochState(told);
      }
      if (settles) {
        if (mode == Mode.EPOCH_UNKNOWN) {
          LOG.info("Learned the global epoch {}; accepting writes", told.epoch());
        }
        open();
      }
    }
    if (shrank) {
      onSnapshotDeleted.run();
    }
  }

  /** The attempt the gate has been closed for longer than {@code boundNanos}, or 0. */
  public synchronized long overdueAttempt(long boundNanos) {
    return mode == Mode.CLOSED && nanoClock.getAsLong() - closedAtNanos > boundNanos ? attempt : 0;
  }

  public synchronized boolean isOpen() {
    return mode == Mode.OPEN;
  }

  /** Opens the gate and admits the waiting changes (those that did not give up waiting). */
  private void open() {
    mode = Mode.OPEN;
    attempt = 0;
    for (CompletableFuture<Void> w : waiting) {
      inFlight++;
      if (!w.complete(null)) {
        inFlight--;
      }
    }
    waiting.clear();
  }
}
