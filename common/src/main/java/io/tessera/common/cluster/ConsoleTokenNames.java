package io.tessera.common.cluster;

/**
 * Console token names, as the audit log shows them: one rule for the meta group that records tokens
 * and the command that creates them.
 */
public final class ConsoleTokenNames {
  /** Longest token name. */
  public static final int MAX_LENGTH = 64;

  private ConsoleTokenNames() {}

  /** Whether {@code name} is 1 to {@link #MAX_LENGTH} letters, digits, '.', '_', '@' or '-'. */
  public static boolean valid(String name) {
    return name != null
        && !name.isEmpty()
        && name.length() <= MAX_LENGTH
        && name.matches("[A-Za-z0-9._@-]+");
  }

  /** Why {@code name} is refused, for the error a user sees. */
  public static String whyInvalid(String name) {
    return "console token name '"
        + name
        + "': 1 to "
        + MAX_LENGTH
        + " letters, digits, '.', '_', '@' or '-'";
  }
}
