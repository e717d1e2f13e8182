package io.tessera.console.api;

import io.javalin.config.RoutesConfig;
import io.tessera.client.admin.ConsoleAdmin;

/** The audit log of console actions, newest first, a page at a time. */
public final class AuditRoutes {
  private final ConsoleAdmin console;

  public AuditRoutes(ConsoleAdmin console) {
    this.console = console;
  }

  public void register(RoutesConfig routes) {
    routes.get(
        "/api/v1/audit",
        ctx ->
            ctx.json(
                console.audit(
                    Requests.number(ctx, "before", 0, 0, Long.MAX_VALUE),
                    (int) Requests.number(ctx, "limit", 100, 1, 1000))));
  }
}
