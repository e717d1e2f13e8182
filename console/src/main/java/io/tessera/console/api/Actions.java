package io.tessera.console.api;

import io.javalin.http.Context;
import io.tessera.client.admin.ClusterAdmin;
import io.tessera.common.proto.ActorProto;
import io.tessera.console.auth.BearerAuth;
import io.tessera.console.auth.Caller;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action (anything that changes the cluster) for an admin token, as that token's user: the
 * meta group checks it and, for its admin requests, audits it as the token with the browser's
 * address. What the meta group does not see whole (a restore, a repair: many requests) and what the
 * console itself refuses (a read-only token) the console records in the audit log.
 */
public final class Actions {
  private static final Logger LOG = LoggerFactory.getLogger(Actions.class);

  private final ClusterAdmin admin;

  /** Who records an action in the audit log. */
  public enum Audit {
    /** The meta group, as it serves the action's one admin request. */
    BY_META_GROUP,
    /** The console: the action is many requests, or none the meta group audits. */
    HERE
  }

  /** The work of one action, done through the caller's view of the cluster. */
  @FunctionalInterface
  public interface Work {
    Object run(ClusterAdmin as) throws IOException;
  }

  public Actions(ClusterAdmin admin) {
    this.admin = admin;
  }

  /** Runs {@code work} as {@code action} on {@code target}, answering with its result. */
  public void run(Context ctx, String action, String target, Audit audit, Work work)
      throws IOException {
    Caller caller = BearerAuth.caller(ctx);
    ClusterAdmin as = admin.actingFor(actor(caller));
    try {
      BearerAuth.requireAdmin(ctx);
    } catch (ApiException e) {
      record(as, caller, action, target, "refused: " + e.getMessage());
      throw e;
    }
    Object result;
    try {
      result = work.run(as);
    } catch (IOException | RuntimeException e) {
      if (audit == Audit.HERE) {
        record(as, caller, action, target, "failed: " + e.getMessage());
      }
      throw e;
    }
    if (audit == Audit.HERE) {
      record(as, caller, action, target, "ok");
    }
    ctx.json(result);
  }

  /** The user the meta group acts for: the token, an admin if the token is. */
  static ActorProto actor(Caller caller) {
    return ActorProto.newBuilder()
        .setName("console:" + caller.token().name())
        .setAdmin(caller.token().admin())
        .setReadOnly(!caller.token().admin())
        .setFrom(caller.address())
        .build();
  }

  private static void record(
      ClusterAdmin as, Caller caller, String action, String target, String result) {
    try {
      as.console().record(caller.who(), caller.address(), action, target, result);
    } catch (IOException e) {
      LOG.warn(
          "Could not record {} {} by {} in the audit log: {}",
          action,
          target,
          caller.who(),
          e.getMessage());
    }
  }
}
