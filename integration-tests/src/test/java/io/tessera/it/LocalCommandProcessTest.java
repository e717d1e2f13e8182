package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.cli.Tessera;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.security.Credentials;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code ./tessera local} as a user runs it, through the script at the repository root: one process
 * per server, stopped by SIGTERM, restarted on its dir.
 */
class LocalCommandProcessTest {
  /** The repository's {@code ./tessera} (tests run in the integration-tests module). */
  private static final Path SCRIPT = Path.of("..", "tessera").toAbsolutePath().normalize();

  /** The script, using the distribution the build just packaged (never building from a test). */
  private static ProcessBuilder script(String... args) {
    List<String> cmd = new ArrayList<>(List.of("bash", SCRIPT.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true);
    b.environment().put("TESSERA_SKIP_BUILD", "1");
    b.environment().put("TESSERA_JAVA_OPTS", "-Xmx256m");
    return b;
  }

  /**
   * Every put, get, cat, fsck and bench printed "WARNING: Using incubator modules", even with
   * --help.
   */
  @Test
  void theScriptTeachesItsCommandsWhenRunWithoutOneOrWithHelp() throws Exception {
    for (String[] args :
        List.of(
            new String[0],
            new String[] {"--help"},
            new String[] {"local", "--help"},
            new String[] {"fs", "put", "--help"},
            new String[] {"fsck", "--help"},
            new String[] {"bench", "ior", "--help"})) {
      Process p = script(args).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(out)
          .as("./tessera %s", String.join(" ", args))
          .contains("Usage: tessera")
          .doesNotContain("unbound variable")
          .doesNotContain("WARNING");
      if (args.length > 0) {
        assertThat(p.exitValue()).as("./tessera %s exits 0", String.join(" ", args)).isZero();
      }
    }
  }

  @Test
  void sigtermStopsEveryServerAndARestartFindsTheFiles() throws Exception {
    Path dir = TestDirs.fresh("local-command");
    int base = TestPorts.freeBase(30);
    byte[] data = new byte[5_000_000];
    new Random(9).nextBytes(data);

    List<Long> firstPids =
        runLocal(
            dir,
            base,
            List.of(),
            fs -> {
              fs.mkdirs("/kept");
              try (TesseraFile f =
                  fs.createFile("/kept/file.bin", CreateOptions.striped(2).stripeUnit(65536))) {
                f.write(0, data, 0, data.length);
              }
            });
    for (long pid : firstPids) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
          .as("server pid %d stopped with tessera local", pid)
          .isFalse();
    }
    assertCommandsSayTheClusterStopped(dir);
    String token = Files.readString(dir.resolve("console.token")).trim();
    // started again with an NFS gateway: a client nobody here wrote reads the same bytes
    runLocal(
        dir,
        base,
        List.of("--nfs"),
        fs -> {
          byte[] back = new byte[data.length];
          fs.openFile("/kept/file.bin").readFully(0, back, 0, back.length);
          assertThat(back).isEqualTo(data);
          Process cat =
              new ProcessBuilder(
                      "nfs-cat",
                      "nfs://127.0.0.1/kept/file.bin?version=3&nfsport="
                          + (base + 18)
                          + "&mountport="
                          + (base + 19))
                  .redirectError(ProcessBuilder.Redirect.DISCARD)
                  .start();
          assertThat(cat.getInputStream().readAllBytes()).isEqualTo(data);
          assertThat(cat.waitFor()).isZero();
          // and hadoop fs, with the shaded adapter found through its service registration
          String root = "tessera://127.0.0.1:" + base + "/";
          Path credentials = dir.resolve("admin.credentials");
          assertThat(HadoopShell.run(credentials, "-ls", root + "kept"))
              .contains(String.valueOf(data.length))
              .contains("/kept/file.bin");
          Path got = dir.resolve("got.bin");
          HadoopShell.run(credentials, "-get", root + "kept/file.bin", got.toString());
          assertThat(Files.readAllBytes(got)).isEqualTo(data);
          HadoopShell.run(credentials, "-put", got.toString(), root + "kept/put.bin");
          byte[] put = new byte[data.length];
          fs.openFile("/kept/put.bin").readFully(0, put, 0, put.length);
          assertThat(put).isEqualTo(data);
        });
    assertThat(Files.readString(dir.resolve("console.token")).trim())
        .as("a restart keeps the console token the cluster still accepts")
        .isEqualTo(token);
  }

  /**
   * A command run where a stopped cluster's files are (./tessera-data) waited 10 s for its meta
   * replicas before it said it could not reach them; cluster.json now says the cluster stopped.
   */
  private static void assertCommandsSayTheClusterStopped(Path dir) throws Exception {
    assertThat(ClusterFile.read(dir.resolve(ClusterFile.NAME)).stoppedAtMs())
        .as("cluster.json after tessera local stopped")
        .isNotNull();
    Path cwd = Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-cwd"));
    Files.deleteIfExists(cwd.resolve("tessera-data"));
    Files.createSymbolicLink(cwd.resolve("tessera-data"), dir);
    long start = System.nanoTime();
    Process ls = script("fs", "ls", "/").directory(cwd.toFile()).start();
    String out = new String(ls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(ls.waitFor()).as(out).isEqualTo(Tessera.EXIT_UNREACHABLE);
    assertThat(out).contains("tessera-data was stopped at", "start it again with 'tessera local'");
    assertThat((System.nanoTime() - start) / 1_000_000)
        .as("ms until the command said so, its JVM's start included")
        .isLessThan(9000);
  }

  /** Every command against addresses where nothing listened took its whole 10 s timeout. */
  @Test
  void aClusterThatIsNotRunningIsReportedAtOnceNotAfterTheRetryWindow() throws Exception {
    int base = TestPorts.freeBase(30);
    String nowhere = "127.0.0.1:" + base + ",127.0.0.1:" + (base + 2);
    long start = System.nanoTime();
    Process ls = script("fs", "ls", "/", "--meta", nowhere, "-Dtessera.security=off").start();
    String out = new String(ls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(ls.waitFor()).as(out).isEqualTo(Tessera.EXIT_UNREACHABLE);
    assertThat(out).contains("no meta replica is running", "127.0.0.1:" + base);
    // a benchmark's JVM runs with the Vector API module, and said so on every start
    Process bench = script("bench", "meta", "--meta", nowhere, "-Dtessera.security=off").start();
    String benchOut = new String(bench.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(bench.waitFor()).as(benchOut).isEqualTo(Tessera.EXIT_UNREACHABLE);
    assertThat(benchOut).contains("no meta replica is running").doesNotContain("WARNING");
    assertThat((System.nanoTime() - start) / 1_000_000)
        .as("ms until the command said so, its JVM's start included")
        .isLessThan(9000);
  }

  /**
   * A second `tessera local` on a running cluster's directory printed every server "up" and "Ready"
   * (the running cluster answered) though all of its own had exited, and overwrote cluster.json
   * with their dead PIDs.
   */
  @Test
  void aSecondLauncherOnARunningClustersDirectoryRefusesAtOnceNamingTheFirst() throws Exception {
    Path dir = TestDirs.fresh("local-twice");
    int base = TestPorts.freeBase(30);
    AtomicLong restarted = new AtomicLong();
    runLocal(
        dir,
        base,
        List.of(),
        fs -> {
          Path clusterJson = dir.resolve(ClusterFile.NAME);
          byte[] before = Files.readAllBytes(clusterJson);
          long firstPid = Long.parseLong(Files.readString(dir.resolve("launcher.pid")).trim());
          Process second = script("local", "--dir", dir.toString()).start();
          String out = new String(second.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
          assertThat(second.exitValue()).as(out).isNotZero();
          assertThat(out.strip().lines())
              .as(out)
              .singleElement()
              .asString()
              .contains("already run by tessera local (PID " + firstPid + ")")
              .doesNotContain("Ready");
          assertThat(Files.readAllBytes(clusterJson))
              .as("cluster.json untouched")
              .isEqualTo(before);
          assertThat(fs.admin().status().dataServers())
              .as("the running cluster serves on")
              .allMatch(d -> d.up());

          // restarting a server needed python or jq to run its JSON cmd, and it then logged to the
          // terminal
          Process refused = script("server", "restart", "ds-1", "--dir", dir.toString()).start();
          String refusal =
              new String(refused.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
          assertThat(refused.exitValue()).as(refusal).isNotZero();
          assertThat(refusal).contains("ds-1 is running");
          long oldPid = ClusterFile.read(clusterJson).data().get(0).pid();
          new ProcessBuilder("kill", "-KILL", String.valueOf(oldPid)).start().waitFor();
          ProcessHandle.of(oldPid)
              .ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
          Path log = dir.resolve("logs").resolve("ds-1.log");
          long logBefore = Files.size(log);
          Process restart = script("server", "restart", "ds-1", "--dir", dir.toString()).start();
          String said = new String(restart.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
          assertThat(restart.waitFor(60, TimeUnit.SECONDS)).isTrue();
          assertThat(restart.exitValue()).as(said).isZero();
          long newPid = ClusterFile.read(clusterJson).data().get(0).pid();
          restarted.set(newPid);
          assertThat(newPid).isNotEqualTo(oldPid);
          assertThat(said.strip()).isEqualTo("ds-1 restarted (PID " + newPid + "); log: " + log);
          org.awaitility.Awaitility.await("ds-1 logs to its file")
              .atMost(Duration.ofSeconds(30))
              .until(() -> Files.size(log) > logBefore);
        });
    // a server restarted by hand is one of the cluster's: stopping tessera local stops it too
    assertThat(ProcessHandle.of(restarted.get()).map(ProcessHandle::isAlive).orElse(false))
        .as("ds-1, restarted by hand as PID %d, stopped with tessera local", restarted.get())
        .isFalse();
  }

  /** A process's nice value, field 19 of /proc/PID/stat (after the command name in parentheses). */
  private static long niceness(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"));
    return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
  }

  /**
   * The console line, an admin token only its owner can read, the console and every server's
   * metrics URL in cluster.json, and the token accepted by the API.
   */
  private static void checkConsole(Path dir, int base, String printed, ClusterFile file)
      throws Exception {
    Path tokenFile = dir.resolve("console.token");
    assertThat(printed)
        .contains(
            "Console: http://127.0.0.1:"
                + (base + 1000)
                + "/  (admin token in "
                + tokenFile.toAbsolutePath());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
        .isEqualTo("rw-------");
    assertThat(file.console().url()).isEqualTo("http://127.0.0.1:" + (base + 1000) + "/");
    assertThat(file.console().tokenFile()).isEqualTo(tokenFile.toAbsolutePath().toString());
    for (ClusterFile.Node n : file.all()) {
      int port = Integer.parseInt(n.address().substring(n.address().lastIndexOf(':') + 1));
      assertThat(n.metrics()).isEqualTo("http://127.0.0.1:" + (port + 1000) + "/metrics");
    }
    HttpResponse<String> cluster =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(file.console().url() + "api/v1/cluster"))
                    .header("Authorization", "Bearer " + Files.readString(tokenFile).trim())
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(cluster.statusCode()).as(cluster.body()).isEqualTo(200);
    assertThat(cluster.body()).contains("\"dataServers\":2");
  }

  private interface ClusterUse {
    void accept(TesseraFileSystem fs) throws Exception;
  }

  /**
   * Runs tessera local until ready, uses it, stops it with SIGTERM; returns the server PIDs it had.
   */
  private static List<Long> runLocal(Path dir, int base, List<String> extra, ClusterUse use)
      throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "local",
                "--dir",
                dir.toString(),
                "--meta-replicas",
                "3",
                "--data-servers",
                "2",
                "--port-base",
                String.valueOf(base)));
    args.addAll(extra);
    // the script execs java, so its process id is the one SIGTERM goes to
    Process local = script(args.toArray(String[]::new)).start();
    List<Long> pids = new ArrayList<>();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(local.getInputStream()));
      StringBuilder seen = new StringBuilder();
      String line;
      while ((line = out.readLine()) != null && !line.startsWith("Ready in")) {
        seen.append(line).append('\n');
      }
      assertThat(line).as("tessera local printed:%n%s", seen).isNotNull();
      // a new cluster's files survive a lost server unless they ask otherwise (it was 6+0)
      assertThat(out.readLine())
          .as("the default layout, after %s", line)
          .startsWith("Default layout: RS 1+1, unit 1 MiB (the root directory's");
      ClusterFile file = ClusterFile.read(dir.resolve(ClusterFile.NAME));
      assertThat(Files.size(dir.resolve(ClusterFile.NAME)))
          .as("cluster.json's bytes (every command held the whole class path: 72 KB)")
          .isLessThan(16 * 1024);
      file.meta().forEach(n -> pids.add(n.pid()));
      file.data().forEach(n -> pids.add(n.pid()));
      file.nfs().forEach(n -> pids.add(n.pid()));
      checkConsole(dir, base, seen.toString(), file);
      if (extra.contains("--nfs")) {
        assertThat(seen).contains("NFS: nfs-ls 'nfs://127.0.0.1/?version=3&nfsport=" + (base + 18));
        ClusterFile.Node gateway = file.nfs().get(0);
        assertThat(gateway.address()).isEqualTo("127.0.0.1:" + (base + 18));
        assertThat(gateway.mountPort()).isEqualTo(base + 19);
        assertThat(gateway.cmd()).contains("nfs");
      }
      assertThat(pids)
          .hasSize(extra.contains("--nfs") ? 6 : 5)
          .allMatch(p -> p > 0 && p != local.pid());
      long ownNice = niceness(ProcessHandle.current().pid());
      for (var n : file.meta()) {
        assertThat(niceness(n.pid()))
            .as("meta replica %s keeps its priority", n.id())
            .isEqualTo(ownNice);
      }
      for (var n : file.data()) {
        assertThat(niceness(n.pid()))
            .as("data server %s yields the CPU to the meta group", n.id())
            .isEqualTo(Math.min(19, ownNice + ProcessCluster.DEFAULT_DATA_NICE));
      }
      try (TesseraFileSystem fs =
          TesseraFileSystem.connect(
              file.metaAddresses(), Credentials.load(Path.of(file.credentials())))) {
        use.accept(fs);
      }
      new ProcessBuilder("kill", "-TERM", String.valueOf(local.pid())).start().waitFor();
      assertThat(local.waitFor(60, TimeUnit.SECONDS))
          .as("tessera local exits after SIGTERM")
          .isTrue();
      String rest = out.lines().collect(Collectors.joining("\n"));
      // writing the servers' class archives printed "[INFO] ClassArchives - ..." at every first
      // stop
      assertThat(rest)
          .as("what tessera local printed after Ready")
          .contains("Stopped.")
          .doesNotContainPattern("\\[(INFO|WARN|DEBUG)\\]");
      for (long pid : pids) {
        ProcessHandle.of(pid).ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
      }
      return pids;
    } finally {
      stopAfterFailure(local, pids);
    }
  }

  /**
   * A failed test leaves no server behind: tessera local is told to stop them, then what is left is
   * killed.
   */
  private static void stopAfterFailure(Process local, List<Long> serverPids) throws Exception {
    if (local.isAlive()) {
      new ProcessBuilder("kill", "-TERM", String.valueOf(local.pid())).start().waitFor();
      local.waitFor(60, TimeUnit.SECONDS);
    }
    local.destroyForcibly();
    for (long pid : serverPids) {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
  }
}
