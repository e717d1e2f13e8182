package io.tessera.localcluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A launcher's class path, kept in a java argument file in the cluster's directory: every server's
 * command names {@code @<dir>/classpath.args} instead of a class path of a hundred jars, so
 * cluster.json stays short enough to read (it was 72 KB) and a command there can be run as it is.
 */
final class ClassPathFile {
  static final String NAME = "classpath.args";

  private ClassPathFile() {}

  /** {@code launcher} with its {@code -cp PATH} replaced by the argument file that holds it. */
  static List<String> inLauncher(List<String> launcher, Path clusterDir) throws IOException {
    int cp = launcher.indexOf("-cp");
    if (cp < 0 || cp + 1 >= launcher.size()) {
      return launcher;
    }
    Path file = Files.createDirectories(clusterDir).resolve(NAME).toAbsolutePath();
    Files.writeString(file, "-cp \"" + quoted(launcher.get(cp + 1)) + "\"\n");
    List<String> out = new ArrayList<>(launcher.subList(0, cp));
    out.add("@" + file);
    out.addAll(launcher.subList(cp + 2, launcher.size()));
    return out;
  }

  /** Inside an argument file's quotes a backslash escapes: paths keep theirs doubled. */
  private static String quoted(String s) {
    return s.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
