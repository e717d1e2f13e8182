package io.tessera.localcluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where server JVMs keep what makes their start cheaper (class archives, unpacked native
 * libraries): a directory next to the distribution's jars, shared by every cluster run from them.
 */
final class StartupCaches {
  private StartupCaches() {}

  /**
   * The class path of {@code launcher} (a java command line with {@code -cp}), or "" when it names
   * none.
   */
  static String classPath(List<String> launcher) {
    int cp = launcher.indexOf("-cp");
    return cp >= 0 && cp + 1 < launcher.size() ? launcher.get(cp + 1) : "";
  }

  /**
   * The jars of {@code classPath}, or none when it holds anything else (a test run's class
   * directories change without their names changing, so nothing derived from them can be kept).
   */
  static List<Path> jars(String classPath) {
    List<Path> jars = new ArrayList<>();
    for (String entry : classPath.split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (entry.isEmpty() || !entry.endsWith(".jar") || !Files.isRegularFile(p)) {
        return List.of();
      }
      jars.add(p);
    }
    return jars;
  }

  /**
   * {@code name} next to the class path's first jar, created if need be; null where it cannot be
   * written.
   */
  static Path dir(List<Path> jars, String name) {
    if (jars.isEmpty()) {
      return null;
    }
    Path dir = jars.get(0).toAbsolutePath().getParent().resolve(name);
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      return null;
    }
    return Files.isWritable(dir) ? dir : null;
  }
}
