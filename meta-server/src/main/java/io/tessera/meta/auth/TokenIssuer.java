package io.tessera.meta.auth;

import io.tessera.common.proto.AccessTokenProto;
import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaRequestProto.OpCase;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.AccessTokens;
import io.tessera.meta.proto.AccessKeysProto;
import io.tessera.meta.state.Actor;
import io.tessera.meta.state.NamespaceStore;
import io.tessera.meta.state.Permissions;
import io.tessera.meta.state.SecurityRecords;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Attaches an access token to every answer that opens a regular file (a lookup, a create): the
 * rights the caller's permissions give it on that file, for {@code tessera.meta.access-token-
 * lifetime}. Data servers serve the file's shards only to a bearer of one.
 */
public final class TokenIssuer {
  private final Supplier<NamespaceStore> store;
  private final AccessTokens tokens = new AccessTokens();
  private final long lifetimeMillis;
  private final LongSupplier clock;

  public TokenIssuer(Supplier<NamespaceStore> store, Duration lifetime, LongSupplier clock) {
    this.store = store;
    this.lifetimeMillis = lifetime.toMillis();
    this.clock = clock;
  }

  /** The reply with a token when it opens a regular file for the request's actor. */
  public MetaResponseProto attach(MetaRequestProto req, MetaResponseProto reply) {
    OpCase op = req.getOpCase();
    InodeProto in = reply.getInode();
    if (reply.getStatus() != StatusProto.OK
        || (op != OpCase.GET_ATTR && op != OpCase.CREATE)
        || in.getType() != FileTypeProto.REGULAR) {
      return reply;
    }
    Actor actor = Actor.of(req.getActor());
    // its creator writes a new file whatever mode it asked for, as open(O_CREAT) does
    int rights =
        op == OpCase.CREATE
            ? AccessTokens.READ | AccessTokens.WRITE
            : Permissions.tokenRights(actor, in);
    if (rights == 0) {
      return reply;
    }
    AccessTokenProto token =
        sign(
            in.getId(),
            rights,
            clock.getAsLong() + lifetimeMillis,
            in.getInSnapshot() ? in.getSnapshotEpoch() + 1 : 0);
    return token == null ? reply : reply.toBuilder().setToken(token).build();
  }

  private AccessTokenProto sign(long fileId, int rights, long expires, long maxEpoch) {
    AccessKeysProto keys = SecurityRecords.accessKeys(store.get());
    int newest = keys.getKeysCount() == 0 ? 0 : keys.getKeys(keys.getKeysCount() - 1).getId();
    if (newest != tokens.newestKey()) {
      tokens.setKeys(keys.getKeysList());
    }
    return tokens.sign(fileId, rights, expires, maxEpoch);
  }
}
