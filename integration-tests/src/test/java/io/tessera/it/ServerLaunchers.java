package io.tessera.it;

import io.tessera.common.fault.FaultPoints;
import io.tessera.localcluster.ProcessCluster;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How the process tests start server JVMs: with this test run's jars (the code under test) but
 * without this module's class directories, which hold tests no server loads. A class path of jars
 * alone gets class archives as the distribution's servers do, so a server a test kills and restarts
 * starts as cheaply as an operator's: on a shared two-core machine that start-up competes with the
 * foreground the recovery scenarios measure.
 */
public final class ServerLaunchers {
  private ServerLaunchers() {}

  /** The launcher with {@link ProcessCluster#defaultJvmOptions()}. */
  public static List<String> defaults() {
    return ProcessCluster.javaLauncher(serverClassPath(), ProcessCluster.defaultJvmOptions());
  }

  /**
   * The default launcher with fault points armed in every server it starts: each entry names a
   * point and a pause, e.g. {@code "meta.snapshot.before-commit=3s"} (see {@link FaultPoints}).
   */
  public static List<String> withFaults(String... faults) {
    List<String> options = new ArrayList<>(ProcessCluster.defaultJvmOptions());
    for (String fault : faults) {
      options.add("-D" + FaultPoints.PROPERTY_PREFIX + fault);
    }
    return ProcessCluster.javaLauncher(serverClassPath(), options);
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
