package io.tessera.data.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tessera.common.proto.AccessKeyProto;
import io.tessera.common.proto.AccessTokenProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DeleteFileRequestProto;
import io.tessera.common.proto.ReadShardsRequestProto;
import io.tessera.common.proto.ShardRangeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.WriteShardsRequestProto;
import io.tessera.common.security.AccessTokens;
import io.tessera.common.security.Identity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A data server serves a file's shards only to the bearer of a token the meta group signed for that
 * file and right: a stranger's request without one, with a forged one, one for another file, one
 * run out, or a read token used to write is refused with a reason; the meta group's own requests
 * need none, and only it (or a proxy forwarding for it) may make them.
 */
class AccessGateTest {
  private static final long NOW = 1_000_000;
  private static final Identity BOB = Identity.user("bob", 1001, 1001, List.of(), false);

  private final AccessTokens meta = new AccessTokens();
  private final AccessTokens server = new AccessTokens();
  private final AccessGate gate = new AccessGate(server, () -> NOW);

  AccessGateTest() {
    List<AccessKeyProto> keys =
        List.of(
            AccessKeyProto.newBuilder()
                .setId(1)
                .setSecret(ByteString.copyFrom(new byte[32]))
                .build(),
            AccessKeyProto.newBuilder()
                .setId(2)
                .setSecret(ByteString.copyFromUtf8("k".repeat(32)))
                .build());
    meta.setKeys(keys);
    server.setKeys(keys);
  }

  private static DataRequestProto read(long fileId, AccessTokenProto token) {
    DataRequestProto.Builder b =
        DataRequestProto.newBuilder()
            .setRead(
                ReadShardsRequestProto.newBuilder()
                    .addRanges(ShardRangeProto.newBuilder().setFileId(fileId).setLength(10)));
    if (token != null) {
      b.addTokens(token);
    }
    return b.build();
  }

  private static DataRequestProto write(long fileId, AccessTokenProto token) {
    return DataRequestProto.newBuilder()
        .addTokens(token)
        .setWrite(
            WriteShardsRequestProto.newBuilder()
                .addRanges(ShardRangeProto.newBuilder().setFileId(fileId).setLength(10)))
        .build();
  }

  private StatusProto outcome(Identity caller, DataRequestProto req) {
    AccessGate.Refusal r = gate.check(caller, req);
    return r == null ? StatusProto.OK : r.status();
  }

  @Test
  void aTokenForTheFileAndRightIsServedAndEverythingElseRefused() {
    AccessTokenProto readToken = meta.sign(7, AccessTokens.READ, NOW + 60_000, 0);

    assertThat(outcome(BOB, read(7, readToken))).isEqualTo(StatusProto.OK);
    assertThat(outcome(BOB, read(7, null))).isEqualTo(StatusProto.TOKEN_EXPIRED);
    assertThat(outcome(BOB, read(8, readToken.toBuilder().setFileId(8).build())))
        .as("a token edited to name another file")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(outcome(BOB, read(8, readToken)))
        .as("another file's token")
        .isEqualTo(StatusProto.TOKEN_EXPIRED);
    assertThat(outcome(BOB, write(7, readToken)))
        .as("a read token used to write")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(
            outcome(
                BOB,
                write(
                    7,
                    readToken.toBuilder()
                        .setRights(AccessTokens.READ | AccessTokens.WRITE)
                        .build())))
        .as("rights added by the bearer")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
  }

  @Test
  void anExpiredTokenIsRefusedSoTheClientAsksForANewOne() {
    AccessTokenProto old = meta.sign(7, AccessTokens.READ, NOW - 1, 0);

    AccessGate.Refusal r = gate.check(BOB, read(7, old));

    assertThat(r.status()).isEqualTo(StatusProto.TOKEN_EXPIRED);
    assertThat(r.message()).contains("ran out");
  }

  @Test
  void aSnapshotsTokenReadsTheSnapshotAndNotTheLiveFile() {
    AccessTokenProto atEpoch3 = meta.sign(7, AccessTokens.READ, NOW + 60_000, 3 + 1);
    DataRequestProto snapshotRead =
        read(7, atEpoch3).toBuilder()
            .setRead(
                read(7, atEpoch3).getRead().toBuilder().setAtSnapshot(true).setSnapshotEpoch(3))
            .build();

    assertThat(outcome(BOB, snapshotRead)).isEqualTo(StatusProto.OK);
    assertThat(outcome(BOB, read(7, atEpoch3))).isEqualTo(StatusProto.PERMISSION_DENIED);
  }

  @Test
  void onlyTheMetaGroupAndProxiesForwardingForItSendCoordinationRequests() {
    DataRequestProto delete =
        DataRequestProto.newBuilder()
            .setDeleteFile(DeleteFileRequestProto.newBuilder().setFileId(7))
            .build();
    DataRequestProto recoveryRead = read(7, null).toBuilder().setRecovery(true).build();

    assertThat(outcome(BOB, delete)).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(outcome(BOB, recoveryRead)).isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(outcome(Identity.server("ds-2", Identity.Role.DATA), delete))
        .as("another data server")
        .isEqualTo(StatusProto.PERMISSION_DENIED);
    assertThat(outcome(Identity.server("m1", Identity.Role.META), delete))
        .isEqualTo(StatusProto.OK);
    assertThat(outcome(Identity.server("m1", Identity.Role.META), read(7, null)))
        .isEqualTo(StatusProto.OK);
    assertThat(outcome(Identity.server("proxy-ds-1", Identity.Role.PROXY), delete))
        .isEqualTo(StatusProto.OK);
    assertThat(outcome(Identity.server("proxy-ds-1", Identity.Role.PROXY), read(7, null)))
        .as("a client's read through a proxy still needs its token")
        .isEqualTo(StatusProto.TOKEN_EXPIRED);
  }
}
