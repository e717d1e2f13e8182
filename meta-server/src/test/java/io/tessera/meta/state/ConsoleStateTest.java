package io.tessera.meta.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.AuditAppendRequestProto;
import io.tessera.common.proto.AuditEntriesProto;
import io.tessera.common.proto.AuditEntryProto;
import io.tessera.common.proto.ConsoleTokenProto;
import io.tessera.common.proto.ConsoleTokenSetRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Console tokens and the audit log as the replicas apply them: a revoked token is gone for every
 * replica, a malformed one never enters, and the audit log keeps its order and its bound however
 * many actions are taken.
 */
class ConsoleStateTest extends AppliedNamespaceTest {
  private MetaResponseProto apply(MetaRequestProto req) {
    MetaResponseProto[] out = new MetaResponseProto[1];
    entry(tx -> out[0] = NamespaceChanges.apply(tx, req, 5000));
    return out[0];
  }

  private static MetaRequestProto token(String id, String name, boolean revoke) {
    return MetaRequestProto.newBuilder()
        .setConsoleTokenSet(
            ConsoleTokenSetRequestProto.newBuilder()
                .setToken(
                    ConsoleTokenProto.newBuilder()
                        .setId(id)
                        .setName(name)
                        .setSecretSha256(ByteString.copyFrom(new byte[32])))
                .setRevoke(revoke))
        .build();
  }

  private static MetaRequestProto audit(String action) {
    return MetaRequestProto.newBuilder()
        .setAuditAppend(
            AuditAppendRequestProto.newBuilder()
                .setEntry(AuditEntryProto.newBuilder().setAction(action).setWho("w")))
        .build();
  }

  @Test
  void aRevokedTokenIsGoneAndRevokingAnUnknownOneSaysSo() {
    assertThat(apply(token("abcd1234", "alice", false)).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(apply(token("efgh5678", "bob", false)).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(store.consoleTokens())
        .extracting(ConsoleTokenProto::getName)
        .containsExactly("alice", "bob");
    assertThat(apply(token("abcd1234", "", true)).getStatus()).isEqualTo(StatusProto.OK);
    assertThat(store.consoleTokens()).extracting(ConsoleTokenProto::getName).containsExactly("bob");
    MetaResponseProto again = apply(token("abcd1234", "", true));
    assertThat(again.getStatus()).isEqualTo(StatusProto.NOT_FOUND);
    assertThat(again.getMessage()).contains("abcd1234");
  }

  @Test
  void malformedTokensAreRefusedWithTheRule() {
    assertThat(apply(token("UPPER", "x", false)).getMessage()).contains("lowercase");
    assertThat(apply(token("abcd1234", "has space", false)).getMessage()).contains("letters");
    MetaRequestProto noHash =
        MetaRequestProto.newBuilder()
            .setConsoleTokenSet(
                ConsoleTokenSetRequestProto.newBuilder()
                    .setToken(ConsoleTokenProto.newBuilder().setId("abcd1234").setName("x")))
            .build();
    assertThat(apply(noHash).getMessage()).contains("SHA-256");
    assertThat(store.consoleTokens()).isEmpty();
  }

  @Test
  void theAuditLogIsNumberedNewestFirstPagedAndBoundedInNumberSayingHowManyWereDropped() {
    int kept = 1000;
    for (int i = 1; i <= kept + 5; i++) {
      int n = i;
      entry(
          tx ->
              AuditLog.append(
                  tx,
                  AuditAppendRequestProto.newBuilder()
                      .setEntry(AuditEntryProto.newBuilder().setAction("a" + n))
                      .setKeepEntries(kept)
                      .build(),
                  n));
    }
    List<AuditEntryProto> newest = store.audit(0, 3);
    assertThat(newest).extracting(AuditEntryProto::getSeq).containsExactly(1005L, 1004L, 1003L);
    assertThat(store.audit(1003, 2))
        .extracting(AuditEntryProto::getAction)
        .containsExactly("a1002", "a1001");
    List<AuditEntryProto> oldest = store.audit(7, 100);
    assertThat(oldest).extracting(AuditEntryProto::getSeq).containsExactly(6L);
    assertThat(store.audit(0, 20_000)).hasSize(kept);
    assertThat(AuditLog.page(store, List.of()).getDropped()).isEqualTo(5);
  }

  @Test
  void entriesOlderThanTheBoundAreDroppedAsNewOnesArriveAndCountedRefusalsAddUp() {
    for (int t = 1; t <= 10; t++) {
      int time = t * 1000;
      entry(
          tx ->
              AuditLog.append(
                  tx,
                  AuditAppendRequestProto.newBuilder()
                      .setEntry(AuditEntryProto.newBuilder().setAction("at " + time))
                      .setDropBeforeMs(time - 3500)
                      .setRefusalsCounted(2)
                      .build(),
                  time));
    }
    assertThat(store.audit(0, 100))
        .extracting(AuditEntryProto::getAction)
        .containsExactly("at 10000", "at 9000", "at 8000", "at 7000");
    AuditEntriesProto page = AuditLog.page(store, List.of());
    assertThat(page.getDropped()).isEqualTo(6);
    assertThat(page.getRefusalsCounted()).isEqualTo(20);
  }

  @Test
  void anAuditEntryGetsTheLogTimeAndItsFieldsAreCut() {
    MetaRequestProto huge = audit("x".repeat(5000));
    // the leader cuts fields before logging, as prepare does
    MetaResponseProto r = apply(NamespaceChanges.prepare(huge, null));
    AuditEntryProto e = r.getAudit().getEntries(0);
    assertThat(e.getAction()).hasSize(AuditAppendOp.MAX_FIELD);
    assertThat(e.getTimeMs()).isEqualTo(5000);
    assertThat(e.getSeq()).isEqualTo(1);
  }
}
