package io.tessera.it;

import io.tessera.cli.local.ProcessCluster;
import java.io.File;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How the process tests start server JVMs: with this test run's jars (the code under test) but
 * without this module's class directories, which hold tests no server loads. A class path of
 * jars alone gets class archives as the distribution's servers do, so a server a test kills and
 * restarts starts as cheaply as an operator's (measured here on an idle cluster: a meta replica's
 * restart 1.1 CPU-s with its archive, 1.8 without; a data server's 0.6 and 0.8). On a shared
 * two-core machine that start-up competes with the foreground the recovery scenarios measure.
 */
public final class ServerLaunchers {
  private ServerLaunchers() {}

  /** The launcher with {@link ProcessCluster#defaultJvmOptions()}. */
  public static List<String> defaults() {
    return ProcessCluster.javaLauncher(serverClassPath(), ProcessCluster.defaultJvmOptions());
  }

  /** This JVM's class path less the integration-tests module's own class directories. */
  static String serverClassPath() {
    Path target = Path.of("target").toAbsolutePath().normalize();
    List<Path> own = List.of(target.resolve("test-classes"), target.resolve("classes"));
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !e.isEmpty() && !own.contains(Path.of(e).toAbsolutePath().normalize()))
        .collect(Collectors.joining(File.pathSeparator));
  }
}
