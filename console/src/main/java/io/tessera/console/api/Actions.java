package io.tessera.console.api;

import io.javalin.http.Context;
import io.tessera.client.admin.ConsoleAdmin;
import io.tessera.console.auth.BearerAuth;
import io.tessera.console.auth.Caller;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs an action (anything that changes the cluster) for an admin token and records it in the audit
 * log: who, from where, what, on what, and how it ended. A refused attempt is recorded too.
 */
public final class Actions {
  private static final Logger LOG = LoggerFactory.getLogger(Actions.class);

  private final ConsoleAdmin console;

  /** The work of one action; its result is the response body. */
  @FunctionalInterface
  public interface Work {
    Object run() throws IOException;
  }

  public Actions(ConsoleAdmin console) {
    this.console = console;
  }

  /** Runs {@code work} as {@code action} on {@code target}, answering with its result. */
  public void run(Context ctx, String action, String target, Work work) throws IOException {
    Caller caller = BearerAuth.caller(ctx);
    try {
      BearerAuth.requireAdmin(ctx);
    } catch (ApiException e) {
      record(caller, action, target, "refused: " + e.getMessage());
      throw e;
    }
    Object result;
    try {
      result = work.run();
    } catch (IOException | RuntimeException e) {
      record(caller, action, target, "failed: " + e.getMessage());
      throw e;
    }
    record(caller, action, target, "ok");
    ctx.json(result);
  }

  private void record(Caller caller, String action, String target, String result) {
    try {
      console.record(caller.who(), caller.address(), action, target, result);
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
