package io.tessera.common.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Async stages on a machine with two CPUs, in a JVM of their own (the pool is sized once per JVM).
 */
class CommonPoolTest {

  /** Runs ten async stages and prints how many ran on a pool thread. */
  public static final class Probe {
    public static void main(String[] args) {
      if (args.length > 0 && args[0].equals("ensure")) {
        CommonPool.ensureThreads();
      }
      int pooled = 0;
      for (int i = 0; i < 10; i++) {
        if (CompletableFuture.supplyAsync(
                () -> Thread.currentThread() instanceof ForkJoinWorkerThread)
            .join()) {
          pooled++;
        }
      }
      System.out.println(pooled + " " + CommonPool.pooled());
    }
  }

  private static String probe(String... args) throws IOException, InterruptedException {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:ActiveProcessorCount=2",
                "-cp",
                System.getProperty("java.class.path"),
                Probe.class.getName()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    // options picked up from the environment would print a line of their own, or size the pool
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("_JAVA_OPTIONS");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void onTwoCpusTheJdkStartsAThreadPerAsyncStage() throws Exception {
    assertThat(probe()).isEqualTo("0 false");
  }

  @Test
  void onTwoCpusEnsuredThreadsKeepAsyncStagesOnThePool() throws Exception {
    assertThat(probe("ensure")).isEqualTo("10 true");
  }
}
