package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java example, compiled and run as a user would copy it. It had no imports, used
 * variables it never declared, and failed when run after the tour (its file already existed).
 */
class ReadmeJavaExampleTest {
  private static final String SECTION = "## Using Tessera from Java";

  @Test
  void theReadmesJavaExampleCompilesAndRunsAgainAndAgain(@TempDir Path dir) throws Exception {
    Path source =
        Files.writeString(
            Files.createDirectories(dir.resolve("src")).resolve("Hello.java"),
            javaBlockAfter(Files.readString(Path.of("..", "README.md")), SECTION));
    Path classes = Files.createDirectories(dir.resolve("classes"));
    String classPath = System.getProperty("java.class.path");
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    assertThat(
            javac.run(
                null, null, null, "-cp", classPath, "-d", classes.toString(), source.toString()))
        .as("javac of the README's example")
        .isZero();

    ClusterPlan plan = new ClusterPlan(dir.resolve("cluster"), 1, 6, TestPorts.freeBase(30));
    try (InProcessCluster cluster = InProcessCluster.start(plan, Config.of(Map.of()))) {
      cluster.awaitReady(Duration.ofSeconds(120));
      for (int run = 1; run <= 2; run++) { // the second finds its file there, as after the tour
        Path err = dir.resolve("err-" + run + ".txt");
        ProcessBuilder b =
            new ProcessBuilder(
                    ProcessHandle.current().info().command().orElse("java"),
                    "-cp",
                    classes + File.pathSeparator + classPath,
                    "Hello")
                .redirectError(err.toFile());
        b.environment().put("TESSERA_META", plan.metaAddresses());
        b.environment().put("TESSERA_CREDENTIALS", plan.adminCredentials().toString());
        Process p = b.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("run %d: %s", run, Files.readString(err)).isZero();
        assertThat(out).isEqualTo("hello from Java\n");
      }
    }
  }

  /** The first ```java block after {@code heading}. */
  private static String javaBlockAfter(String markdown, String heading) {
    int section = markdown.indexOf(heading);
    assertThat(section).as("README section %s", heading).isNotNegative();
    int start = markdown.indexOf("```java\n", section) + "```java\n".length();
    int end = markdown.indexOf("```", start);
    return markdown.substring(start, end);
  }
}
