package io.tessera.cli.options;

/** File-system paths as typed on the command line: relative ones are taken from the root. */
public final class ClusterPaths {
  private ClusterPaths() {}

  public static String absolute(String p) {
    if (p == null || p.isEmpty()) {
      throw new IllegalArgumentException("empty path");
    }
    return p.startsWith("/") ? p : "/" + p;
  }
}
