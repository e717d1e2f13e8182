package io.tessera.meta.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.proto.SnapshotBeginProto;
import io.tessera.meta.proto.SnapshotCommitProto;
import org.junit.jupiter.api.Test;

/**
 * The snapshot catalog's rules as the state machine applies them. The coordinator PREPAREs the data
 * servers while BEGIN is being logged, so a server's "I gave up waiting" can reach the log before
 * the BEGIN it concerns.
 */
class SnapshotCatalogTest extends AppliedNamespaceTest {
  private static SnapshotBeginProto begin(long attempt, String name) {
    return SnapshotBeginProto.newBuilder()
        .setAttempt(attempt)
        .setName(name)
        .setCreatorClient(ByteString.copyFromUtf8("client"))
        .setCreatorCall(attempt)
        .build();
  }

  @Test
  void anAttemptADataServerGaveUpOnBeforeItsBeginWasLoggedNeverBegins() {
    entry(
        tx ->
            assertThat(SnapshotCatalog.abort(tx, 41)).isFalse()); // the server's overdue heartbeat
    entry(
        tx ->
            assertThatThrownBy(() -> SnapshotCatalog.begin(tx, begin(41, "nightly")))
                .isInstanceOfSatisfying(
                    NamespaceException.class,
                    e -> assertThat(e.status()).isEqualTo(StatusProto.BUSY)));
    assertThat(store.pendingSnapshot()).isNull();

    // the coordinator's next attempt goes through, and the name is still free for it
    entry(tx -> SnapshotCatalog.begin(tx, begin(42, "nightly")));
    entry(
        tx ->
            SnapshotCatalog.commit(tx, SnapshotCommitProto.newBuilder().setAttempt(42).build(), 5));
    assertThat(store.snapshot("nightly").getEpoch()).isZero();
    assertThat(store.epoch()).isEqualTo(1);
  }

  @Test
  void anAttemptAbortedAfterItsBeginCannotCommit() {
    entry(tx -> SnapshotCatalog.begin(tx, begin(7, "a")));
    entry(tx -> assertThat(SnapshotCatalog.abort(tx, 7)).isTrue());
    entry(
        tx ->
            assertThatThrownBy(
                    () ->
                        SnapshotCatalog.commit(
                            tx, SnapshotCommitProto.newBuilder().setAttempt(7).build(), 5))
                .isInstanceOf(NamespaceException.class));
    assertThat(store.snapshot("a")).isNull();
    assertThat(store.epoch()).isZero();
  }

  @Test
  void onlyTheNewestAbortedAttemptsAreRemembered() {
    for (long a = 1; a <= 100; a++) {
      long attempt = a;
      entry(tx -> SnapshotCatalog.abort(tx, attempt));
    }
    entry(
        tx ->
            SnapshotCatalog.begin(
                tx, begin(1, "old-attempt-id"))); // long forgotten: random ids never recur
    entry(
        tx ->
            assertThatThrownBy(() -> SnapshotCatalog.begin(tx, begin(100, "b")))
                .isInstanceOf(NamespaceException.class));
  }

  @Test
  void aCommittedSnapshotWhoseCheckpointIsNotTakenYetIsRememberedAcrossARestart() throws Exception {
    entry(tx -> SnapshotCatalog.begin(tx, begin(9, "s")));
    entry(
        tx -> {
          SnapshotCatalog.commit(tx, SnapshotCommitProto.newBuilder().setAttempt(9).build(), 5);
          tx.setCapturePending(0);
        });
    store.close();
    store = new NamespaceStore(dir);
    assertThat(store.capturePending()).isZero();
    store.captureDone();
    assertThat(store.capturePending()).isEqualTo(-1);
  }
}
