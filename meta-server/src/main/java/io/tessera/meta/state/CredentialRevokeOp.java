package io.tessera.meta.state;

import io.tessera.common.proto.CredentialsProto;
import io.tessera.common.proto.CredentialsRevokeRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.RevocationProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.Identity;
import java.util.List;

/**
 * Revokes a user's (or a server's) certificates issued until now, or one certificate by serial:
 * every server refuses them from then on and closes their connections.
 */
final class CredentialRevokeOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of();
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    Actor actor = Actor.of(req.getActor());
    Permissions.requireAdmin(actor, "revoke credentials");
    CredentialsRevokeRequestProto r = req.getCredentialsRevoke();
    RevocationProto.Builder entry =
        RevocationProto.newBuilder().setRevokedMs(now).setRevokedBy(actor.proto().getName());
    if (!r.getSerial().isEmpty()) {
      if (!r.getSerial().matches("[0-9a-fA-F]{1,40}")) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT, "serial '" + r.getSerial() + "' is not hexadecimal");
      }
      entry.setSerial(r.getSerial().toLowerCase(java.util.Locale.ROOT));
    } else {
      try {
        Identity.requireValidName(r.getName());
      } catch (IllegalArgumentException e) {
        throw new NamespaceException(StatusProto.INVALID_ARGUMENT, "revoke: " + e.getMessage());
      }
      if (!r.getServer() && r.getName().equals(actor.proto().getName())) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT,
            "an admin cannot revoke its own credentials (another admin can)");
      }
      entry.setName(r.getName()).setServer(r.getServer()).setIssuedBeforeMs(now);
    }
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setCredentials(
            CredentialsProto.newBuilder().setRevocations(SecurityRecords.revoke(tx, entry.build())))
        .build();
  }
}
