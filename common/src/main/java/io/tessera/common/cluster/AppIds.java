package io.tessera.common.cluster;

/**
 * Application ids, as requests carry them and QoS settings name them: one rule for the meta group
 * that stores settings and the proxies that schedule by them.
 */
public final class AppIds {
  /** Longest id: it travels in every request. */
  public static final int MAX_LENGTH = 128;

  private AppIds() {}

  /** Whether {@code id} is 1 to {@link #MAX_LENGTH} letters, digits, '.', '_' or '-'. */
  public static boolean valid(String id) {
    return !id.isEmpty() && id.length() <= MAX_LENGTH && id.matches("[A-Za-z0-9._-]+");
  }

  /** Why {@code id} is refused, for the error a user sees. */
  public static String whyInvalid(String id) {
    return "application name '"
        + id
        + "': 1 to "
        + MAX_LENGTH
        + " letters, digits, '.', '_' or '-'";
  }
}
