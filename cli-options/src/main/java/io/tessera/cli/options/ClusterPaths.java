package io.tessera.cli.options;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * File-system paths as typed on the command line: relative ones are taken from the root. As a
 * parameter's converter, an empty path is bad usage before any cluster is asked.
 */
public final class ClusterPaths implements ITypeConverter<String> {
  public static String absolute(String p) {
    if (p == null || p.isEmpty()) {
      throw new IllegalArgumentException("empty path");
    }
    return p.startsWith("/") ? p : "/" + p;
  }

  @Override
  public String convert(String typed) {
    try {
      return absolute(typed);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage() + ": name a path in the cluster, e.g. /");
    }
  }
}
