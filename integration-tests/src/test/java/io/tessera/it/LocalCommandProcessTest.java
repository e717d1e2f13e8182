package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.cli.local.ProcessCluster;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.cluster.ClusterFile;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code tessera local} as a user runs it: one process per server, stopped by SIGTERM, restarted on its dir. */
class LocalCommandProcessTest {

  @Test
  void sigtermStopsEveryServerAndARestartFindsTheFiles() throws Exception {
    Path dir = TestDirs.fresh("local-command");
    int base = TestPorts.freeBase(30);
    byte[] data = new byte[5_000_000];
    new java.util.Random(9).nextBytes(data);

    List<Long> firstPids = runLocal(dir, base, fs -> {
      fs.mkdirs("/kept");
      try (TesseraFile f = fs.createFile("/kept/file.bin", CreateOptions.striped(2).stripeUnit(65536))) {
        f.write(0, data, 0, data.length);
      }
    });
    for (long pid : firstPids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("server pid %d stopped with tessera local", pid).isFalse();
    }
    runLocal(dir, base, fs -> {
      byte[] back = new byte[data.length];
      fs.openFile("/kept/file.bin").readFully(0, back, 0, back.length);
      assertThat(back).isEqualTo(data);
    });
  }

  private interface ClusterUse {
    void accept(TesseraFileSystem fs) throws Exception;
  }

  /** Runs tessera local until ready, uses it, stops it with SIGTERM; returns the server PIDs it had. */
  private static List<Long> runLocal(Path dir, int base, ClusterUse use) throws Exception {
    List<String> cmd = new ArrayList<>(ProcessCluster.javaLauncher(List.of("-Xmx256m")));
    cmd.addAll(List.of("local", "--dir", dir.toString(), "--meta", "3", "--data-servers", "2", "--port-base",
        String.valueOf(base)));
    Process local = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(local.getInputStream()));
      StringBuilder seen = new StringBuilder();
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("Ready in")) {
        seen.append(line).append('\n');
      }
      assertThat(line).as("tessera local printed:%n%s", seen).isNotNull();
      ClusterFile file = ClusterFile.read(dir.resolve(ClusterFile.NAME));
      List<Long> pids = new ArrayList<>();
      file.meta().forEach(n -> pids.add(n.pid()));
      file.data().forEach(n -> pids.add(n.pid()));
      assertThat(pids).hasSize(5).allMatch(p -> p > 0 && p != local.pid());
      try (TesseraFileSystem fs = TesseraFileSystem.connect(file.metaAddresses())) {
        use.accept(fs);
      }
      new ProcessBuilder("kill", "-TERM", String.valueOf(local.pid())).start().waitFor();
      assertThat(local.waitFor(60, TimeUnit.SECONDS)).as("tessera local exits after SIGTERM").isTrue();
      for (long pid : pids) {
        ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
      }
      return pids;
    } finally {
      local.destroyForcibly();
    }
  }
}
