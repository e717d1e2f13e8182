package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code hadoop fs} as a Hadoop user runs it: {@code org.apache.hadoop.fs.FsShell} in a JVM of its
 * own, with only Hadoop's shaded client and Tessera's shaded adapter on the class path.
 */
final class HadoopShell {
  private static final List<String> JARS =
      List.of("hadoop-client-api-", "hadoop-client-runtime-", "tessera-hadoop-", "slf4j-api-");

  private HadoopShell() {}

  /** Runs {@code hadoop fs ARGS} with these credentials; returns what it printed (exit 0). */
  static String run(Path credentials, String... args) throws Exception {
    // a Hadoop install has its configuration directory on the class path; Hadoop refuses to start
    // without a core-site.xml there
    Path conf = credentials.resolveSibling("hadoop-conf");
    Files.createDirectories(conf);
    Files.writeString(conf.resolve("core-site.xml"), "<configuration/>\n");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                conf + File.pathSeparator + classPath(),
                "org.apache.hadoop.fs.FsShell",
                "-Dfs.tessera.credentials=" + credentials));
    cmd.addAll(Arrays.asList(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("hadoop fs %s", List.of(args)).isTrue();
    assertThat(p.exitValue()).as("hadoop fs %s printed:%n%s", List.of(args), out).isZero();
    return out;
  }

  /** Hadoop's client jars and the adapter's, from this test's class path. */
  private static String classPath() {
    List<String> found = new ArrayList<>();
    for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
      String name = Path.of(e).getFileName().toString();
      if (name.endsWith(".jar") && JARS.stream().anyMatch(name::startsWith)) {
        found.add(e);
      }
    }
    assertThat(found).as("jars for hadoop fs").hasSize(JARS.size());
    return String.join(File.pathSeparator, found);
  }
}
