package io.tessera.common.cluster;

import java.util.regex.Pattern;

/**
 * Snapshot names: one rule for the meta group that records snapshots and the commands that name
 * them, so a malformed name is refused before any request is sent.
 */
public final class SnapshotNames {
  /** A directory name under /.snapshots, never "." or "..". */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  private SnapshotNames() {}

  /** Whether {@code name} could be a snapshot's. */
  public static boolean valid(String name) {
    return name != null && NAME.matcher(name).matches();
  }

  /** Why {@code name} is refused, for the error a user sees. */
  public static String whyInvalid(String name) {
    return "snapshot name '"
        + name
        + "' is not valid: use 1 to 128 letters, digits, '.', '_' or '-', starting with a letter or"
        + " digit";
  }
}
