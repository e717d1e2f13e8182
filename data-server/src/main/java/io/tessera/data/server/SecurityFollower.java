package io.tessera.data.server;

import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.HeartbeatResponseProto;
import io.tessera.common.security.AccessTokens;
import io.tessera.common.security.Revocations;

/**
 * A data server's copy of the meta group's security state, kept current through heartbeats: each
 * says what the server holds, the answer brings what changed (new access-token keys, a longer
 * revocation list, whose revoked callers' connections are then closed).
 */
final class SecurityFollower {
  private final AccessTokens tokens;
  private final Revocations revocations;

  SecurityFollower(AccessTokens tokens, Revocations revocations) {
    this.tokens = tokens;
    this.revocations = revocations;
  }

  /** Says in a heartbeat what this server holds. */
  void stamp(HeartbeatRequestProto.Builder hb) {
    hb.setNewestAccessKey(tokens.newestKey()).setRevocationsVersion(revocations.version());
  }

  /** Adopts what the answer brings. */
  void learn(HeartbeatResponseProto r) {
    if (r.getAccessKeysCount() > 0) {
      tokens.setKeys(r.getAccessKeysList());
    }
    if (r.hasRevocations()) {
      revocations.update(r.getRevocations());
    }
  }
}
