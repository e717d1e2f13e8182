package io.tessera.console.auth;

import io.javalin.http.Context;
import io.tessera.client.admin.ConsoleAdmin;
import io.tessera.console.api.ApiException;
import java.io.IOException;
import java.util.Optional;

/**
 * Checks the {@code Authorization: Bearer} header of every API call against the tokens the meta
 * group holds. The tokens are cached for {@link #CACHE_NANOS}; a token the cache does not know
 * makes it refresh (at most once per {@link #MISS_REFRESH_NANOS}), so a new token works at once and
 * a revoked one stops within seconds. Tokens are never taken from cookies: a page on another site
 * cannot make the browser send one.
 */
public final class BearerAuth {
  private static final long CACHE_NANOS = 5_000_000_000L;
  private static final long MISS_REFRESH_NANOS = 1_000_000_000L;
  private static final String CALLER = "tessera.caller";

  private final ConsoleAdmin console;
  private ConsoleAdmin.TokenSet tokens;
  private long fetchedNanos;

  public BearerAuth(ConsoleAdmin console) {
    this.console = console;
  }

  /** Before every API call: 401 without a valid token. */
  public void authenticate(Context ctx) {
    String header = ctx.header("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw unauthorized("this API needs an 'Authorization: Bearer <token>' header");
    }
    Optional<ConsoleAdmin.Token> token = verify(header.substring(7).trim());
    if (token.isEmpty()) {
      throw unauthorized(
          "the token is unknown or revoked (tessera console token create makes one)");
    }
    ctx.attribute(CALLER, new Caller(token.get(), ctx.ip()));
  }

  /** The caller {@link #authenticate} found. */
  public static Caller caller(Context ctx) {
    return ctx.attribute(CALLER);
  }

  /** For actions: 403 for a read-only token. */
  public static Caller requireAdmin(Context ctx) {
    Caller c = caller(ctx);
    if (!c.token().admin()) {
      throw new ApiException(
          403, "token '" + c.token().name() + "' is read-only: this action needs an admin token");
    }
    return c;
  }

  private synchronized Optional<ConsoleAdmin.Token> verify(String bearer) {
    long now = System.nanoTime();
    if (tokens == null || now - fetchedNanos > CACHE_NANOS) {
      refresh(now);
    }
    Optional<ConsoleAdmin.Token> found = tokens.verify(bearer);
    if (found.isEmpty() && now - fetchedNanos > MISS_REFRESH_NANOS) {
      refresh(now);
      found = tokens.verify(bearer);
    }
    return found;
  }

  private void refresh(long now) {
    try {
      tokens = console.tokenSet();
      fetchedNanos = now;
    } catch (IOException e) {
      if (tokens == null) {
        throw new ApiException(
            503, "cannot check tokens: the meta group did not answer (" + e.getMessage() + ")");
      }
    }
  }

  private static ApiException unauthorized(String message) {
    return new ApiException(401, message);
  }
}
