package io.tessera.meta.state;

import io.tessera.common.cluster.ConsoleTokenNames;
import io.tessera.common.proto.ConsoleTokenProto;
import io.tessera.common.proto.ConsoleTokensProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.util.List;

/**
 * Adds or revokes a console token, replicated so that every replica's console accepts the same
 * tokens, across restarts and leader changes.
 */
final class ConsoleTokenOp implements NamespaceOp {
  @Override
  public List<String> paths(MetaRequestProto req) {
    return List.of();
  }

  @Override
  public MetaRequestProto prepare(MetaRequestProto req, Leader leader) {
    check(req.getConsoleTokenSet().getToken(), req.getConsoleTokenSet().getRevoke());
    return req;
  }

  @Override
  public MetaResponseProto apply(NamespaceTxn tx, MetaRequestProto req, long now) {
    Permissions.requireAdmin(Actor.of(req.getActor()), "create or revoke console tokens");
    ConsoleTokenProto token = req.getConsoleTokenSet().getToken();
    boolean revoke = req.getConsoleTokenSet().getRevoke();
    check(token, revoke);
    if (!tx.setConsoleToken(token, revoke)) {
      throw new NamespaceException(
          StatusProto.NOT_FOUND,
          "no console token " + token.getId() + " (tessera console token list)");
    }
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setConsoleTokens(ConsoleTokensProto.newBuilder().addTokens(token))
        .build();
  }

  private static void check(ConsoleTokenProto token, boolean revoke) {
    if (!token.getId().matches("[a-z0-9]{4,32}")) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "console token id '" + token.getId() + "': 4 to 32 lowercase letters or digits");
    }
    if (revoke) {
      return;
    }
    if (!ConsoleTokenNames.valid(token.getName())) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT, ConsoleTokenNames.whyInvalid(token.getName()));
    }
    if (token.getSecretSha256().size() != 32) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "a console token carries the 32-byte SHA-256 of its secret");
    }
  }
}
