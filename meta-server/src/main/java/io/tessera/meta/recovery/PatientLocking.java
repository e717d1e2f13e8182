package io.tessera.meta.recovery;

import io.tessera.common.proto.StatusProto;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * How the recovery coordinator takes one lock on several servers of a file while its writers go on.
 *
 * <p>A writer holds its stripe locks for one write (milliseconds) and gives all of them back as
 * soon as any server refuses it. A coordinator that also gave everything back at every refusal had
 * to find a moment when no server of the file held a writer's lock; on a file under steady writes
 * that took seconds (30 rounds and 4 s in the recovery scenarios), and every round got in the
 * writers' way. Instead the coordinator keeps what it was granted and asks again, every {@code
 * retryNanos}, only the servers that refused: the writers it holds off give their locks back and
 * cannot take those stripes again, and the ones already holding them finish their write.
 *
 * <p>It keeps a partial lock for at most {@code holdNanos}: a writer that died holding its lock
 * keeps it until its lease ends, and the file's other writers must not wait that long. It then lets
 * everything go and starts again after a random back-off of two to four times that, until the
 * deadline: while such a lock lasts, the file's writers are held off at most a third of the time.
 */
final class PatientLocking {
  /**
   * What one round of asking got: the servers that granted the lock, those that refused it because
   * another holds it (BUSY), and the worst refusal (one other than BUSY if any; null when all
   * granted).
   */
  record Round(List<String> granted, List<String> busy, RecoveryException failure) {
    Round {
      granted = List.copyOf(granted);
      busy = List.copyOf(busy);
    }
  }

  /** Asks each of the servers for the lock at once and waits for every answer. */
  interface Ask {
    Round ask(List<String> servers) throws InterruptedException;
  }

  static final long HOLD_NANOS = 100_000_000L;
  static final long RETRY_NANOS = 1_000_000L;

  private final LongSupplier clock;
  private final Sleeper sleeper;
  private final long holdNanos;
  private final long retryNanos;

  PatientLocking(LongSupplier clock, Sleeper sleeper, long holdNanos, long retryNanos) {
    this.clock = clock;
    this.sleeper = sleeper;
    this.holdNanos = holdNanos;
    this.retryNanos = retryNanos;
  }

  static PatientLocking real() {
    return new PatientLocking(System::nanoTime, Sleeper.REAL, HOLD_NANOS, RETRY_NANOS);
  }

  /**
   * Returns once every server granted the lock. Otherwise lets go of what it holds ({@code
   * release}) and throws: the first refusal other than BUSY at once, BUSY when servers still refuse
   * at the deadline.
   */
  void lockAll(List<String> servers, Ask ask, Consumer<List<String>> release, long deadlineNanos)
      throws InterruptedException {
    List<String> held = new ArrayList<>();
    List<String> asking = servers;
    long partialSince = 0;
    boolean partial = false;
    while (true) {
      Round round = ask.ask(asking);
      held.addAll(round.granted());
      if (round.failure() != null && round.failure().status() != StatusProto.BUSY) {
        release.accept(List.copyOf(held));
        throw round.failure();
      }
      if (round.busy().isEmpty()) {
        return;
      }
      long now = clock.getAsLong();
      if (now - deadlineNanos > 0) {
        release.accept(List.copyOf(held));
        throw round.failure() != null
            ? round.failure()
            : new RecoveryException(
                StatusProto.BUSY, "servers " + round.busy() + " kept refusing the lock");
      }
      if (!partial) {
        partial = true;
        partialSince = now;
      }
      if (now - partialSince < holdNanos) {
        asking = round.busy();
        sleeper.sleep(retryNanos);
        continue;
      }
      // a lock no writer let go of within the hold: most likely a dead writer's, kept to its lease
      release.accept(List.copyOf(held));
      held.clear();
      asking = servers;
      partial = false;
      sleeper.sleep(ThreadLocalRandom.current().nextLong(2 * holdNanos, 4 * holdNanos));
    }
  }
}
