package io.tessera.common.cluster;

/**
 * Server ids (m1, ds-4, proxy-ds-4): one rule for the servers that claim them, the meta group that
 * registers them and the commands that name them.
 */
public final class ServerIds {
  private ServerIds() {}

  /** Whether {@code id} is 1 to 64 letters, digits, '.', '_' or '-'. */
  public static boolean valid(String id) {
    return id != null && id.matches("[A-Za-z0-9._-]{1,64}");
  }

  /** Why {@code id} is refused, for the error a user sees. */
  public static String whyInvalid(String id) {
    return "server id '" + id + "' must be 1-64 letters, digits, '.', '_' or '-'";
  }

  /** Refuses a malformed id as bad usage. */
  public static void requireValid(String id) {
    if (!valid(id)) {
      throw new IllegalArgumentException(whyInvalid(id));
    }
  }
}
