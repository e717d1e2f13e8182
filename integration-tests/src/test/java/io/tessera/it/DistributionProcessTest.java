package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.localcluster.ClusterCredentials;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.TestPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What an operator installing Tessera on machines does, on one: unpack the archive {@code mvn
 * package} builds, write one properties file per server, start each with {@code bin/tessera server
 * ... --config FILE} as the systemd units do, and use the cluster with the archive's own command.
 */
class DistributionProcessTest {
  /** The archive, copied here by the build (integration-tests/pom.xml). */
  private static final Path ARCHIVE =
      Path.of("target", "distribution", "tessera-distribution.tar.gz").toAbsolutePath();

  private final List<Process> servers = new ArrayList<>();

  @AfterEach
  void stopServers() throws Exception {
    for (Process p : servers) {
      new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor();
    }
    for (Process p : servers) {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor();
      }
    }
  }

  @Test
  void theArchiveUnpacksToAClusterStartedFromOnePropertiesFilePerServer() throws Exception {
    Path dir = TestDirs.fresh("distribution");
    Path home = unpack(dir);
    assertThat(home.resolve("bin/tessera")).isExecutable();
    try (var jars = Files.list(home.resolve("lib"))) {
      assertThat(jars.map(p -> p.getFileName().toString()))
          .anyMatch(n -> n.startsWith("tessera-admin-cli-"))
          .anyMatch(n -> n.startsWith("rocksdbjni-"));
    }
    for (String kind : List.of("meta", "data", "nfs")) {
      assertThat(home.resolve("conf/" + kind + ".properties")).isRegularFile();
      assertThat(Files.readString(home.resolve("systemd/tessera-" + kind + "@.service")))
          .contains("bin/tessera server " + kind + " --config")
          .contains("Restart=on-failure");
    }

    ClusterPlan plan = new ClusterPlan(dir.resolve("cluster"), 1, 3, TestPorts.freeBase(40));
    ClusterCredentials.ensure(plan);
    Path conf = Files.createDirectories(dir.resolve("etc"));
    servers.add(
        start(
            home,
            dir,
            "meta",
            write(
                conf.resolve("meta-m1.properties"),
                "id=m1",
                "peers=" + plan.peersSpec(),
                "dir=" + plan.metaDir("m1"),
                "credentials=" + plan.credentialsFile("m1"),
                "tessera.meta.data-server-timeout=3s")));
    for (String id : plan.dataIds()) {
      // the advertised host is given without a port: the server announces the one it listens on
      servers.add(
          start(
              home,
              dir,
              "data",
              write(
                  conf.resolve("data-" + id + ".properties"),
                  "id=" + id,
                  "dir=" + plan.dataDir(id),
                  "meta=" + plan.metaAddresses(),
                  "bind-host=127.0.0.1",
                  "port=" + plan.dataPort(id),
                  "advertise=127.0.0.1",
                  "credentials=" + plan.credentialsFile(id))));
    }

    try (TesseraFileSystem fs = TesseraFileSystem.connect(plan.clientConfig())) {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(500))
          .ignoreExceptions()
          .until(
              () ->
                  fs.admin().status().dataServers().stream()
                          .filter(ClusterStatus.DataServer::up)
                          .count()
                      == 3);
      for (ClusterStatus.DataServer ds : fs.admin().status().dataServers()) {
        assertThat(ds.address()).isEqualTo("127.0.0.1:" + plan.dataPort(ds.id()));
      }
    }

    byte[] data = new byte[3 << 20];
    new Random(7).nextBytes(data);
    Path in = Files.write(dir.resolve("in.bin"), data);
    Path out = dir.resolve("out.bin");
    cli(home, plan, "fs", "put", "--ec", "2+1", in.toString(), "/installed.bin");
    assertThat(cli(home, plan, "fs", "stat", "/installed.bin")).contains("Layout: RS 2+1");
    cli(home, plan, "fs", "get", "/installed.bin", out.toString());
    assertThat(Files.readAllBytes(out)).isEqualTo(data);
  }

  @Test
  void aDataServerListeningEverywhereWithNothingToAnnounceRefusesToStartSayingWhatToSet()
      throws Exception {
    Path dir = TestDirs.fresh("distribution-refusal");
    Path home = unpack(dir);
    Path file =
        write(
            dir.resolve("data.properties"),
            "id=ds-1",
            "dir=" + dir.resolve("ds-1"),
            "meta=127.0.0.1:9",
            "bind-host=0.0.0.0");
    Process p = start(home, dir, "data", file);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).isNotZero();
    assertThat(Files.readString(dir.resolve("data.out")))
        .contains("listens on every address")
        .contains("--advertise");
  }

  private static Path unpack(Path dir) throws Exception {
    assertThat(ARCHIVE).as("built by mvn package (the distribution module)").isRegularFile();
    Process tar =
        new ProcessBuilder("tar", "xzf", ARCHIVE.toString(), "-C", dir.toString())
            .redirectErrorStream(true)
            .start();
    assertThat(tar.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(tar.exitValue()).as(new String(tar.getInputStream().readAllBytes())).isZero();
    try (var top = Files.list(dir)) {
      return top.filter(p -> p.getFileName().toString().startsWith("tessera-"))
          .findFirst()
          .orElseThrow();
    }
  }

  private static Path write(Path file, String... lines) throws IOException {
    return Files.write(file, List.of(lines), StandardCharsets.UTF_8);
  }

  /**
   * The archive's {@code bin/tessera} with {@code args}, on its own jars (never a build's) with a
   * small heap.
   */
  private static ProcessBuilder archive(Path home, String... args) {
    List<String> cmd = new ArrayList<>(List.of(home.resolve("bin/tessera").toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true);
    b.environment().put("TESSERA_JAVA_OPTS", "-Xmx256m -XX:+UseSerialGC");
    b.environment().remove("TESSERA_CLASSPATH");
    return b;
  }

  /** {@code bin/tessera server KIND --config FILE}, its output in DIR/KIND.out. */
  private static Process start(Path home, Path dir, String kind, Path config) throws IOException {
    return archive(home, "server", kind, "--config", config.toString())
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(kind + ".out").toFile()))
        .start();
  }

  /**
   * Runs the archive's command as the cluster's admin; returns its output, failing on exit != 0.
   */
  private static String cli(Path home, ClusterPlan plan, String... args) throws Exception {
    ProcessBuilder b = archive(home, args);
    b.environment().put("TESSERA_META", plan.metaAddresses());
    b.environment().put("TESSERA_CREDENTIALS", plan.adminCredentials().toString());
    Process p = b.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(String.join(" ", args) + ": " + out).isZero();
    return out;
  }
}
