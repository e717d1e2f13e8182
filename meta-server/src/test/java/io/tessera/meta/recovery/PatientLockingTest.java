package io.tessera.meta.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.proto.StatusProto;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The recovery coordinator locking a whole file on its nine servers while writers come and go (a
 * clock of its own: no real waiting).
 */
class PatientLockingTest {
  private static final List<String> SERVERS =
      List.of("ds-1", "ds-2", "ds-3", "ds-4", "ds-5", "ds-6", "ds-7", "ds-8", "ds-9");
  private static final long MS = 1_000_000L;

  private long now = 1_000_000_000_000L;

  /** What the coordinator holds on each server now, as the servers see it. */
  private final Set<String> held = new HashSet<>();

  private final List<List<String>> asked = new ArrayList<>();

  /** Nanoseconds during which the coordinator held some, not all, of the servers. */
  private long partialNanos;

  private final PatientLocking locking =
      new PatientLocking(
          () -> now,
          nanos -> {
            if (!held.isEmpty() && held.size() < SERVERS.size()) {
              partialNanos += nanos;
            }
            now += nanos;
          },
          100 * MS,
          MS);

  /**
   * Servers answer BUSY where {@code writerHolds} says a writer's lock is there now, else grant.
   */
  private PatientLocking.Ask servers(Predicate<String> writerHolds) {
    return ask -> {
      asked.add(List.copyOf(ask));
      List<String> granted = new ArrayList<>();
      List<String> busy = new ArrayList<>();
      for (String s : ask) {
        (writerHolds.test(s) ? busy : granted).add(s);
      }
      held.addAll(granted);
      return new PatientLocking.Round(
          granted,
          busy,
          busy.isEmpty()
              ? null
              : new RecoveryException(StatusProto.BUSY, "stripes locked by a writer"));
    };
  }

  private void lockAll(PatientLocking.Ask ask, long deadline) throws InterruptedException {
    locking.lockAll(
        SERVERS,
        ask,
        released -> {
          assertThat(held).containsAll(released);
          held.removeAll(released);
        },
        deadline);
  }

  @Test
  void aFileUnderSteadyWritesIsLockedAsSoonAsTheWritersInTheWayFinishNotWhenAllNineHappenToBeFree()
      throws Exception {
    // writers come and go: at any moment one server or another holds a writer's lock, for 3 ms each
    long start = now;
    lockAll(
        servers(
            s -> {
              long ms = (now - start) / MS;
              int busyServer = (int) (ms / 3) % SERVERS.size();
              return SERVERS.get(busyServer).equals(s) && !held.contains(s);
            }),
        now + 40_000 * MS);

    assertThat(held).containsExactlyInAnyOrderElementsOf(SERVERS);
    assertThat(asked.get(0)).isEqualTo(SERVERS);
    assertThat(asked.subList(1, asked.size()))
        .allSatisfy(round -> assertThat(round).containsExactly("ds-1"));
    assertThat(now - start).isLessThanOrEqualTo(3 * MS);
  }

  @Test
  void aLockADeadWriterLeftIsWaitedOutWithoutKeepingTheFileFromItsOtherWriters() throws Exception {
    long leaseEnds = now + 3_000 * MS; // the dead writer's lock on ds-4 lapses then
    long start = now;
    lockAll(servers(s -> s.equals("ds-4") && now - leaseEnds < 0), now + 40_000 * MS);

    assertThat(held).containsExactlyInAnyOrderElementsOf(SERVERS);
    assertThat(now).isGreaterThanOrEqualTo(leaseEnds);
    // it let go of the other eight after each 100 ms and backed off 200-400 ms: most of the wait
    // they were free
    assertThat(partialNanos).isLessThanOrEqualTo((now - start) / 3 + 100 * MS);
  }

  @Test
  void aServerThatFailsOtherwiseEndsTheAttemptAndLeavesNothingLocked() {
    PatientLocking.Ask ask =
        servers -> {
          asked.add(List.copyOf(servers));
          List<String> granted = new ArrayList<>(servers);
          granted.remove("ds-7");
          held.addAll(granted);
          return new PatientLocking.Round(
              granted,
              List.of(),
              new RecoveryException(StatusProto.UNAVAILABLE, "data server ds-7 did not answer"));
        };

    assertThatThrownBy(() -> lockAll(ask, now + 40_000 * MS))
        .isInstanceOf(RecoveryException.class)
        .hasMessageContaining("ds-7 did not answer");
    assertThat(held).isEmpty();
    assertThat(asked).hasSize(1);
  }

  @Test
  void aLockThatStaysTakenPastTheDeadlineIsReportedBusyAndNothingStaysLocked() {
    long start = now;
    assertThatThrownBy(() -> lockAll(servers(s -> s.equals("ds-2")), now + 5_000 * MS))
        .isInstanceOf(RecoveryException.class)
        .satisfies(e -> assertThat(((RecoveryException) e).status()).isEqualTo(StatusProto.BUSY));
    assertThat(held).isEmpty();
    assertThat(now - start).isBetween(5_000 * MS, 5_500 * MS);
  }
}
