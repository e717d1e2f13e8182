package io.tessera.data.server;

import io.tessera.common.proto.AccessTokenProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.AccessTokens;
import io.tessera.common.security.DataAccess;
import io.tessera.common.security.Identity;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Who may have a data server do what ({@link DataAccess}): the meta group anything; a QoS proxy
 * what it forwards (it lets through the meta group's coordination and recovery requests only from
 * the meta group); anyone else a file's shards only with an access token for that file and right.
 * The tokens' keys come with the meta group's answers to heartbeats.
 */
final class AccessGate {
  private final AccessTokens tokens;
  private final LongSupplier clock;

  AccessGate(AccessTokens tokens, LongSupplier clock) {
    this.tokens = tokens;
    this.clock = clock;
  }

  /** Why the request is refused (a status and a message), or null when it may be served. */
  Refusal check(Identity caller, DataRequestProto req) {
    if (caller == null || caller.isServer(Identity.Role.META)) {
      return null; // no security, or the meta group
    }
    DataAccess.Need need = DataAccess.of(req);
    boolean proxied = caller.isServer(Identity.Role.PROXY);
    switch (need) {
      case ANYONE:
        return null;
      case SERVER:
        return proxied
            ? null
            : new Refusal(
                StatusProto.PERMISSION_DENIED,
                "permission denied: "
                    + caller.describe()
                    + " may not send "
                    + describe(req)
                    + " requests: only the meta group does");
      case SERVER_OR_ADMIN:
        return proxied || caller.admin()
            ? null
            : new Refusal(
                StatusProto.PERMISSION_DENIED,
                "permission denied: " + caller.describe() + " may not scan versions: admins only");
      default:
        return checkTokens(
            req, need == DataAccess.Need.READ ? AccessTokens.READ : AccessTokens.WRITE);
    }
  }

  /**
   * Completes once this server can check tokens: at once, or when the meta group's keys arrive with
   * a heartbeat answer (a server just started, a cluster just created); fails after {@code wait},
   * and the request is then refused as unavailable.
   */
  CompletableFuture<Void> ready(Duration wait) {
    return tokens.keysHeld().copy().orTimeout(wait.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Whether serving this caller's request takes checking an access token. */
  boolean needsToken(Identity caller, DataRequestProto req) {
    if (caller == null || caller.isServer(Identity.Role.META)) {
      return false;
    }
    DataAccess.Need need = DataAccess.of(req);
    return need == DataAccess.Need.READ || need == DataAccess.Need.WRITE;
  }

  /** Whether this server holds the keys tokens are checked with. */
  boolean holdsKeys() {
    return tokens.newestKey() != 0;
  }

  private Refusal checkTokens(DataRequestProto req, int right) {
    if (tokens.newestKey() == 0) {
      return new Refusal(
          StatusProto.UNAVAILABLE,
          "this data server has no access keys from the meta group yet: retry shortly");
    }
    long epoch = DataAccess.snapshotEpoch(req);
    long now = clock.getAsLong();
    for (long fileId : DataAccess.files(req)) {
      AccessTokenProto token = find(req, fileId);
      if (token == null) {
        return new Refusal(
            StatusProto.TOKEN_EXPIRED,
            "no access token for file " + fileId + ": open it through the meta group first");
      }
      AccessTokens.Refusal r = tokens.check(token, fileId, right, epoch, now);
      if (r == AccessTokens.Refusal.EXPIRED) {
        return new Refusal(
            StatusProto.TOKEN_EXPIRED,
            "the access token for file " + fileId + " ran out: ask the meta group for a new one");
      }
      if (r == AccessTokens.Refusal.INVALID) {
        return new Refusal(
            StatusProto.PERMISSION_DENIED,
            "permission denied: the access token does not let its bearer "
                + (right == AccessTokens.READ ? "read" : "write")
                + " file "
                + fileId
                + (epoch >= 0 ? " at snapshot epoch " + epoch : ""));
      }
    }
    return null;
  }

  private static AccessTokenProto find(DataRequestProto req, long fileId) {
    for (AccessTokenProto t : req.getTokensList()) {
      if (t.getFileId() == fileId) {
        return t;
      }
    }
    return null;
  }

  private static String describe(DataRequestProto req) {
    return req.getRecovery()
        ? "recovery"
        : req.getOpCase().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
  }

  /** A refused request's status and message. */
  record Refusal(StatusProto status, String message) {}
}
