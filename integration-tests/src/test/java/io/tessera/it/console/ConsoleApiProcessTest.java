package io.tessera.it.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tessera.client.CreateOptions;
import io.tessera.client.OpenOptions;
import io.tessera.client.RegionLock;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.it.Promtool;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The console's REST API and every server's /metrics on a process-per-server cluster (three meta
 * replicas, three data servers), called with the JDK's HTTP client and checked with Prometheus's
 * own promtool. The failure stories: an API that acts without a token, a read-only token that acts,
 * bad input that crashes or hangs instead of saying what is wrong, a path that climbs out of the
 * namespace, an action missing from the audit log, a follower that cannot serve the page, and
 * metrics a Prometheus server would reject.
 */
class ConsoleApiProcessTest {
  static final ObjectMapper JSON = new ObjectMapper();
  static ProcessCluster cluster;
  static ClusterPlan plan;
  static TesseraFileSystem fs;
  static String admin;
  static String viewer;

  /** Every action the tests took, as the audit log should name it: "action target result". */
  static final List<String> actions = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    plan = new ClusterPlan(TestDirs.fresh("console-api"), 3, 3, TestPorts.freeBase(30)).withHttp();
    cluster = ProcessCluster.start(plan, ServerLaunchers.defaults(), List.of());
    cluster.awaitReady(Duration.ofSeconds(120));
    fs = TesseraFileSystem.connect(plan.clientConfig());
    admin = fs.admin().console().createToken("it-admin", true).bearer();
    viewer = fs.admin().console().createToken("it-viewer", false).bearer();
  }

  @AfterAll
  static void stop() throws Exception {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  static ConsoleHttp console(String metaId) {
    return new ConsoleHttp("http://" + plan.httpAddress(metaId));
  }

  static String leader() throws IOException {
    return fs.admin().status().replicas().stream()
        .filter(r -> r.leader())
        .findFirst()
        .orElseThrow()
        .id();
  }

  static String follower() throws IOException {
    String leader = leader();
    return plan.metaPeers().stream()
        .map(p -> p.id())
        .filter(id -> !id.equals(leader))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void callsWithoutAValidTokenAreRefusedWith401() throws Exception {
    ConsoleHttp c = console("m1");
    ConsoleHttp.Reply none = c.get("/api/v1/cluster", null);
    assertThat(none.status()).isEqualTo(401);
    assertThat(none.body()).contains("Authorization: Bearer");
    assertThat(c.get("/api/v1/cluster", "tsr_abcd_not-a-secret").status()).isEqualTo(401);
    assertThat(c.get("/api/v1/cluster", admin + "x").status()).isEqualTo(401);
    // the OpenAPI document is public: it describes the API, it holds nothing of the cluster
    ConsoleHttp.Reply doc = c.get("/api/v1/openapi.json", null);
    assertThat(doc.status()).isEqualTo(200);
    assertThat(JSON.readTree(doc.body()).get("paths").has("/api/v1/snapshots/{name}/restore"))
        .isTrue();
  }

  @Test
  void aReadOnlyTokenLooksButCannotActAndTheAttemptIsAudited() throws Exception {
    ConsoleHttp c = console("m1");
    assertThat(c.get("/api/v1/servers", viewer).status()).isEqualTo(200);
    ConsoleHttp.Reply refused =
        c.send("POST", "/api/v1/snapshots", viewer, "{\"name\":\"by-viewer\"}");
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.body()).contains("read-only");
    actions.add("snapshot.create by-viewer refused");
    assertThat(fs.admin().snapshots().list()).noneMatch(s -> s.name().equals("by-viewer"));
  }

  @Test
  void badInputGetsA4xxThatSaysWhatIsWrong() throws Exception {
    ConsoleHttp c = console("m1");
    ConsoleHttp.Reply badJson = c.send("POST", "/api/v1/snapshots", admin, "{\"name\": ");
    assertThat(badJson.status()).isEqualTo(400);
    assertThat(JSON.readTree(badJson.body()).get("error").asText()).contains("not valid JSON");
    ConsoleHttp.Reply unknownField =
        c.send("POST", "/api/v1/snapshots", admin, "{\"nmae\": \"x\"}");
    assertThat(unknownField.status()).isEqualTo(400);
    assertThat(unknownField.body()).contains("nmae");
    assertThat(c.get("/api/v1/snapshots?limit=0", admin).status()).isEqualTo(400);
    assertThat(c.get("/api/v1/snapshots?limit=ten", admin).body()).contains("whole number");

    ConsoleHttp.Reply gone = c.send("DELETE", "/api/v1/snapshots/no-such-snapshot", admin, null);
    assertThat(gone.status()).isEqualTo(404);
    assertThat(gone.body()).contains("no-such-snapshot");
    assertThat(
            c.send("POST", "/api/v1/snapshots/no-such/restore", admin, "{\"all\":true}").status())
        .isEqualTo(404);
    assertThat(c.get("/api/v1/files?path=/no/such/dir", admin).status()).isEqualTo(404);
  }

  @Test
  void pathsThatClimbOutOfTheNamespaceAreRefused() throws Exception {
    ConsoleHttp c = console("m1");
    for (String path :
        List.of("/data/../etc", "/data/%2e%2e/etc", "/data/%2E%2E", "relative", "/a/./b")) {
      ConsoleHttp.Reply r = c.get("/api/v1/files?path=" + path, admin);
      assertThat(r.status()).as(path).isEqualTo(400);
      assertThat(r.body()).as(path).contains("error");
    }
    ConsoleHttp.Reply restore =
        c.send("POST", "/api/v1/snapshots/s-any/restore", admin, "{\"path\":\"/x/../../y\"}");
    assertThat(restore.status()).isIn(400, 404);
    // traversal in the URL itself, sent raw (an HTTP client library would normalise it)
    for (String raw :
        List.of("/api/v1/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2fetc/passwd")) {
      assertThat(rawGetStatus(raw)).as(raw).isIn(400, 404);
    }
  }

  @Test
  void aFilesRegionLockHoldersAreListedWithTheFile() throws Exception {
    fs.mkdirs("/locked");
    fs.createFile("/locked/f", CreateOptions.defaults()).close();
    try (TesseraFile f = fs.openFile("/locked/f", OpenOptions.write());
        RegionLock l = f.lock(4096, 8192, false)) {
      ConsoleHttp.Reply r = console("m1").get("/api/v1/files?path=/locked/f", admin);
      assertThat(r.status()).isEqualTo(200);
      assertThat(r.body())
          .contains("\"offset\":4096", "\"length\":8192", "\"mode\":\"exclusive\"")
          .contains("pid " + ProcessHandle.current().pid());
    }
  }

  @Test
  void anOversizedBodyIsRefusedWithoutBeingHeld() throws Exception {
    String huge = "{\"name\":\"" + "a".repeat(1 << 20) + "\"}";
    ConsoleHttp.Reply r = console("m1").send("POST", "/api/v1/snapshots", admin, huge);
    assertThat(r.status()).isEqualTo(413);
    assertThat(console("m1").get("/api/v1/cluster", admin).status()).isEqualTo(200);
  }

  @Test
  void aFollowerServesReadsAndActionsAndEveryActionIsAudited() throws Exception {
    ConsoleHttp f = console(follower());
    JsonNode health = JSON.readTree(f.get("/api/v1/cluster", admin).body());
    assertThat(health.get("filesystems").asInt())
        .as("the data servers of this one machine share one filesystem, counted once")
        .isEqualTo(1);
    assertThat(health.get("capacityBytes").asLong())
        .isEqualTo(java.nio.file.Files.getFileStore(plan.dir()).getTotalSpace());
    assertThat(health.get("leader").asText()).isEqualTo(leader());
    assertThat(health.get("dataServersUp").asInt()).isEqualTo(3);

    try (OutputStream out = fs.create("/audited.txt", CreateOptions.erasure(2, 1))) {
      out.write("v1".getBytes(StandardCharsets.UTF_8));
    }
    ConsoleHttp.Reply created =
        f.send("POST", "/api/v1/snapshots", admin, "{\"name\":\"via-follower\"}");
    assertThat(created.status()).isEqualTo(201);
    assertThat(JSON.readTree(created.body()).get("exclusiveBytes").asLong())
        .as("a snapshot just taken holds nothing of its own (it answered -1)")
        .isZero();
    actions.add("snapshot.create via-follower ok");
    ConsoleHttp.Reply restored =
        f.send(
            "POST", "/api/v1/snapshots/via-follower/restore", admin, "{\"path\":\"/audited.txt\"}");
    assertThat(restored.status()).isEqualTo(200);
    actions.add("snapshot.restore via-follower:/audited.txt ok");
    ConsoleHttp.Reply repaired =
        f.send("POST", "/api/v1/fsck/repair", admin, "{\"path\":\"/audited.txt\"}");
    assertThat(repaired.status()).isEqualTo(200);
    assertThat(JSON.readTree(repaired.body()).get("healthy").asBoolean()).isTrue();
    actions.add("fsck.repair /audited.txt ok");
    JsonNode tree = JSON.readTree(f.get("/api/v1/fsck?path=/&limit=1000", admin).body());
    assertThat(tree.get("files").asInt()).isGreaterThanOrEqualTo(1);
    assertThat(tree.get("damaged").asInt()).isZero();
    assertThat(tree.get("truncated").asBoolean()).isFalse();
    assertThat(f.send("PUT", "/api/v1/qos/batch", admin, "{\"weight\": 3}").status())
        .isEqualTo(200);
    actions.add("qos.set batch ok");
    assertThat(f.send("DELETE", "/api/v1/snapshots/via-follower", admin, null).status())
        .isEqualTo(200);
    actions.add("snapshot.delete via-follower ok");
    assertThat(fs.admin().qos().list()).anyMatch(a -> a.app().equals("batch") && a.weight() == 3);

    JsonNode audit = JSON.readTree(f.get("/api/v1/audit?limit=1000", admin).body());
    List<String> logged = new ArrayList<>();
    for (JsonNode e : audit) {
      String result = e.get("result").asText();
      logged.add(
          e.get("action").asText()
              + " "
              + e.get("target").asText()
              + " "
              + (result.startsWith("refused") ? "refused" : result));
      assertThat(e.get("who").asText())
          .as("the token the console acted for, or the test's own client making tokens")
          .matches("console:it-admin \\(admin\\)|console:it-viewer|admin \\(admin\\)");
      assertThat(e.get("time").asText()).isNotEmpty();
    }
    assertThat(logged).containsAll(actions);
  }

  @Test
  void everyServersMetricsPassPromtoolAndCountWhatHappened() throws Exception {
    try (OutputStream out = fs.create("/metered.bin", CreateOptions.erasure(2, 1))) {
      out.write(new byte[3 << 20]);
    }
    fs.admin().snapshots().create("metered");
    ClusterFile file = ClusterFile.read(plan.clusterFile());
    assertThat(file.console().url()).isEqualTo(plan.consoleUrl());
    StringBuilder all = new StringBuilder();
    for (ClusterFile.Node n : file.all()) {
      assertThat(n.metrics()).as(n.id()).startsWith("http://");
      all.append(Promtool.checkedMetrics(n.metrics()));
    }
    String m = all.toString();
    for (String name :
        List.of(
            "tessera_data_requests_total{op=\"write\",outcome=\"ok\"}",
            "tessera_data_request_duration_seconds_bucket{op=\"read\"",
            "tessera_data_written_bytes_total",
            "tessera_data_read_bytes_total",
            "tessera_data_shard_store_bytes",
            "tessera_data_stripe_locks_granted_total",
            "tessera_data_stripe_locks_refused_total",
            "tessera_meta_requests_total{op=\"create\",outcome=\"ok\"}",
            "tessera_meta_raft_commit_duration_seconds_bucket",
            "tessera_meta_leader_changes_total",
            "tessera_meta_snapshot_duration_seconds_count",
            "tessera_meta_rebuilt_bytes_total",
            "tessera_meta_is_leader",
            "jvm_memory_used_bytes")) {
      assertThat(m).contains(name);
    }
    assertThat(Promtool.sum(m, "tessera_data_written_bytes_total")).isGreaterThanOrEqualTo(3 << 20);
    assertThat(Promtool.sum(m, "tessera_meta_snapshot_duration_seconds_count"))
        .isGreaterThanOrEqualTo(1);
  }

  /** Sends a request line byte for byte as given and returns the status code. */
  private static int rawGetStatus(String rawPath) throws IOException {
    String[] hp = plan.httpAddress("m1").split(":");
    try (Socket s = new Socket(hp[0], Integer.parseInt(hp[1]))) {
      s.setSoTimeout(10_000);
      s.getOutputStream()
          .write(
              ("GET "
                      + rawPath
                      + " HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                      + admin
                      + "\r\nConnection: close\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      String status = new String(s.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
      return Integer.parseInt(status.substring(9, 12));
    }
  }
}
