package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.QosApp;
import io.tessera.client.admin.QosStatus;
import io.tessera.common.config.Config;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What QoS must do wherever its scheduler runs, on four data servers, each its own process: two
 * applications share the servers by their weights, weights changed at run time take effect, every
 * scheduler's metrics count what it served, and a scheduler fed garbage keeps serving others. Each
 * placement ({@code tessera.qos.placement}) runs these in a subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class QosScenarios {
  static final int UNIT = 256 << 10;
  ProcessCluster cluster;
  ClusterPlan plan;

  /** The cluster to start in {@code dir} on port base {@code base}. */
  abstract ClusterPlan plan(Path dir, int base);

  /** Settings given to every server besides the shallow queue. */
  abstract List<String> placementSettings();

  /** The id of the server that schedules data server {@code dataId}'s requests. */
  abstract String schedulerOf(String dataId);

  /** Where clients reach that scheduler. */
  abstract String schedulerAddress(String dataId);

  @BeforeAll
  void start() throws Exception {
    plan = plan(TestDirs.fresh("qos-" + getClass().getSimpleName()), TestPorts.freeBase(230));
    // storage, not this machine's CPU, is what applications wait for (as on a real cluster: else
    // requests are served at once and no share is ever contended), and a shallow queue at each
    // data server, so that two busy applications queue in the schedulers
    List<String> settings = new ArrayList<>(placementSettings());
    settings.add("-Dtessera.data.test-device-cap=16M");
    settings.add("-Dtessera.qos.depth=2");
    cluster = ProcessCluster.start(plan, ServerLaunchers.defaults(), settings);
    cluster.awaitReady(Duration.ofSeconds(120));
  }

  @AfterAll
  void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  TesseraFileSystem as(String app) throws IOException {
    return TesseraFileSystem.connect(
        Config.of(
            Map.of(
                ClientConfigKeys.Cluster.META.key(),
                plan.metaAddresses(),
                "tessera.security.credentials",
                plan.adminCredentials().toString(),
                ClientConfigKeys.Cluster.APP_ID.key(),
                app)));
  }

  /** Threads writing 1 MiB at a time to files over all four servers until stopped. */
  private static List<Thread> busy(String app, TesseraFileSystem fs, AtomicBoolean stop) {
    return busy(app, fs, stop, 4);
  }

  private static List<Thread> busy(
      String app, TesseraFileSystem fs, AtomicBoolean stop, int writers) {
    List<Thread> threads = new ArrayList<>();
    for (int i = 0; i < writers; i++) {
      String path = "/qos/" + app + "-" + i;
      Thread t =
          new Thread(
              () -> {
                byte[] chunk = new byte[1 << 20];
                try (TesseraFile f =
                    fs.createFile(
                        path, CreateOptions.striped(4).stripeUnit(UNIT).overwrite(true))) {
                  for (long pos = 0; !stop.get(); pos = (pos + chunk.length) % (16 << 20)) {
                    f.write(pos, chunk, 0, chunk.length);
                  }
                } catch (IOException e) {
                  throw new IllegalStateException(e);
                }
              });
      t.start();
      threads.add(t);
    }
    return threads;
  }

  private static double share(QosStatus s, String app) {
    return s.apps().stream()
        .filter(a -> a.settings().app().equals(app))
        .mapToDouble(QosStatus.App::achievedShare)
        .sum();
  }

  /** Sets the weights and waits until every proxy applies them (they follow the meta group). */
  private static void setWeights(TesseraFileSystem fs, double analytics, double checkpoint)
      throws IOException {
    fs.admin().qos().set(new QosApp("analytics", analytics, 0, 0, true));
    fs.admin().qos().set(new QosApp("checkpoint", checkpoint, 0, 0, true));
    await()
        .atMost(Duration.ofSeconds(20))
        .until(() -> fs.admin().qos().status(Duration.ofMillis(100)).settingsEverywhere());
  }

  @Test
  void twoBusyApplicationsShareByWeightAndAWeightChangedAtRunTimeTakesEffect() throws Exception {
    try (TesseraFileSystem admin = TesseraFileSystem.connect(plan.clientConfig());
        TesseraFileSystem analytics = as("analytics");
        TesseraFileSystem checkpoint = as("checkpoint")) {
      admin.mkdirs("/qos");
      setWeights(admin, 1, 3);
      AtomicBoolean stop = new AtomicBoolean();
      List<Thread> threads = new ArrayList<>(busy("analytics", analytics, stop));
      threads.addAll(busy("checkpoint", checkpoint, stop));
      try {
        Thread.sleep(1000);
        QosStatus oneToThree = admin.admin().qos().status(Duration.ofSeconds(5));
        double ratio = share(oneToThree, "checkpoint") / share(oneToThree, "analytics");
        assertThat(ratio).as("checkpoint over analytics at weights 1:3").isBetween(2.0, 4.5);
        assertThat(oneToThree.apps())
            .filteredOn(a -> a.requests() > 0)
            .as("shares follow weights only while requests wait: both waited")
            .allSatisfy(a -> assertThat(a.contended()).as(a.toString()).isTrue());

        setWeights(admin, 3, 1);
        QosStatus threeToOne = admin.admin().qos().status(Duration.ofSeconds(5));
        double turned = share(threeToOne, "checkpoint") / share(threeToOne, "analytics");
        assertThat(turned)
            .as("checkpoint over analytics after the change to 3:1")
            .isBetween(0.22, 0.5);
      } finally {
        stop.set(true);
        for (Thread t : threads) {
          t.join();
        }
      }
      // one writer alone, one request at a time: nothing ever waits, whatever its weight
      AtomicBoolean stopLone = new AtomicBoolean();
      List<Thread> lone = busy("checkpoint", checkpoint, stopLone, 1);
      try {
        QosStatus alone = admin.admin().qos().status(Duration.ofSeconds(2));
        assertThat(alone.apps())
            .filteredOn(a -> a.settings().app().equals("checkpoint"))
            .singleElement()
            .satisfies(a -> assertThat(a.contended()).as(a.toString()).isFalse());
      } finally {
        stopLone.set(true);
        for (Thread t : lone) {
          t.join();
        }
      }
    }
  }

  @Test
  void everySchedulersMetricsPassPromtoolAndCountWhatItServedEachApplication() throws Exception {
    try (TesseraFileSystem fs = as("metered")) {
      fs.mkdirs("/qos");
      try (TesseraFile f = fs.createFile("/qos/metered", CreateOptions.erasure(2, 1))) {
        f.write(0, new byte[4 << 20], 0, 4 << 20);
      }
    }
    double served = 0;
    double requests = 0;
    for (String dataId : plan.dataIds()) {
      String text = Promtool.checkedMetrics(plan.metricsUrl(schedulerOf(dataId)));
      served += Promtool.sum(text, "tessera_qos_served_bytes_total{app=\"metered\"}");
      requests += Promtool.sum(text, "tessera_qos_requests_total{app=\"metered\"}");
    }
    assertThat(requests).isGreaterThanOrEqualTo(3);
    // 4 MiB of data in 2+1 stripes: 6 MiB of units through the schedulers
    assertThat(served).isGreaterThanOrEqualTo(6 << 20);
  }

  @Test
  void aSchedulerFedGarbageClosesThatConnectionAndServesOthers() throws Exception {
    String[] hostPort = schedulerAddress("ds-1").split(":");
    int port = Integer.parseInt(hostPort[1]);
    // unframeable bytes, then a frame declaring 2 GiB
    for (byte[] bad :
        List.of(
            "GET / HTTP/1.1\r\n\r\n".getBytes(),
            ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array())) {
      try (Socket s = new Socket(hostPort[0], port)) {
        s.setSoTimeout(10_000);
        OutputStream out = s.getOutputStream();
        out.write(bad);
        out.flush();
        InputStream in = s.getInputStream();
        assertThat(in.read()).as("the scheduler closes a connection sending garbage").isEqualTo(-1);
      }
    }
    try (TesseraFileSystem fs = as("odd app name with spaces and ünïcode");
        TesseraFileSystem admin = TesseraFileSystem.connect(plan.clientConfig())) {
      fs.mkdirs("/qos");
      try (TesseraFile f = fs.createFile("/qos/after-garbage", CreateOptions.striped(4))) {
        f.write(0, new byte[] {1, 2, 3}, 0, 3);
      }
      assertThat(fs.stat("/qos/after-garbage").size()).isEqualTo(3);
      assertThatThrownBy(() -> admin.admin().qos().set(new QosApp("backup", -1, 0, 0, true)))
          .hasMessageContaining("weight of backup must be a positive number");
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(admin.admin().qos().status(Duration.ofMillis(200)).unreachable())
                      .isEmpty());
    }
  }
}
