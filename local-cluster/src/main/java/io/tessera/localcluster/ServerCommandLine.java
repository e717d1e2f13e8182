package io.tessera.localcluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Whether a process is a given server of a local cluster (and not another program that took its
 * PID), from its arguments. They are read from /proc: the JDK's ProcessHandle.Info cuts a command
 * line at 4,096 characters, and a server's class path alone is longer.
 */
public final class ServerCommandLine {
  private ServerCommandLine() {}

  /** Whether {@code h} runs with {@code --id id} and an argument that names {@code dir}. */
  public static boolean runs(ProcessHandle h, String id, String dir) {
    List<String> args = arguments(h);
    int at = args.indexOf("--id");
    return at >= 0
        && at + 1 < args.size()
        && args.get(at + 1).equals(id)
        && (dir == null || args.stream().anyMatch(a -> a.contains(dir)));
  }

  private static List<String> arguments(ProcessHandle h) {
    try {
      return Arrays.asList(
          Files.readString(
                  Path.of("/proc", String.valueOf(h.pid()), "cmdline"), StandardCharsets.UTF_8)
              .split("\0"));
    } catch (IOException e) {
      return h.info().arguments().map(Arrays::asList).orElse(List.of());
    }
  }
}
