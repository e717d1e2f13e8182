package io.tessera.meta.state;

import io.tessera.common.proto.CredentialRecordProto;
import io.tessera.common.proto.CredentialsProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.Identity;
import java.util.List;

/** Records credentials the cluster CA issued (what {@code tessera credentials list} shows). */
final class CredentialRegisterOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of();
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    Actor actor = Actor.of(req.getActor());
    Permissions.requireAdmin(actor, "record credentials");
    CredentialRecordProto rec = req.getCredentialsRegister().getRecord();
    try {
      Identity.requireValidName(rec.getName());
    } catch (IllegalArgumentException e) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT, "credentials of " + e.getMessage());
    }
    if (!rec.getSerial().matches("[0-9a-f]{1,40}")) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT, "serial '" + rec.getSerial() + "' is not hexadecimal");
    }
    CredentialRecordProto stored = rec.toBuilder().setIssuedBy(actor.proto().getName()).build();
    SecurityRecords.register(tx, stored);
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setCredentials(CredentialsProto.newBuilder().addIssued(stored))
        .build();
  }
}
