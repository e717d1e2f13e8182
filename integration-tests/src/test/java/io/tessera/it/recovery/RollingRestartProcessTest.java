package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.it.InProcessCli;
import io.tessera.it.ServerLaunchers;
import io.tessera.it.TestDirs;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.localcluster.TestPorts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * An upgrade restarts every server while applications run: {@code tessera cluster rolling-restart}
 * stops and starts each in turn, waiting for the cluster to be whole between them. Writers whose
 * every acknowledged byte is checked afterwards and a metadata client creating, stating and
 * removing files run throughout: not one of their requests may fail, not one byte may be lost.
 */
class RollingRestartProcessTest {
  @Test
  void everyServerRestartedInTurnWhileClientsWorkCostsThemNoErrorAndNoByte() throws Exception {
    ClusterPlan plan = new ClusterPlan(TestDirs.fresh("rolling"), 3, 4, TestPorts.freeBase(40));
    try (ProcessCluster cluster =
            ProcessCluster.start(
                plan,
                ServerLaunchers.defaults(),
                // the default failure detection (an aggressive one marks servers of a loaded
                // machine down while a replica restarts); what is tested is that clients see
                // nothing, not how fast rebuilds yield to them: at the default 5 % each server's
                // catching up takes 30-60 s here
                List.of("-Dtessera.meta.rebuild-lock-share-under-load=50"));
        TesseraFileSystem fs =
            TesseraFileSystem.connect(
                plan.clientConfig()
                    .with(ClientConfigKeys.Failures.DOWN_SERVER_RETRY_AFTER, "1s")
                    .with(ClientConfigKeys.Cluster.META_RETRY_FOR, "30s"))) {
      cluster.awaitReady(Duration.ofSeconds(120));
      Workload data =
          new Workload(fs, "/rolling", 4, 5, CreateOptions.erasure(2, 2).stripeUnit(Workload.UNIT));
      MetaClient meta = new MetaClient(fs);
      data.start(3);
      meta.start();
      InProcessCli.Result r;
      try {
        r =
            InProcessCli.run(
                plan.adminCredentials(),
                "cluster",
                "rolling-restart",
                "--dir",
                plan.dir().toString(),
                "--wait-timeout",
                "3m");
      } finally {
        meta.stop();
        data.stopWriters();
      }
      System.out.print(r.out()); // each server's time back, for the test's report
      assertThat(r.code()).as(r.out() + r.err()).isZero();
      for (String id : plan.dataIds()) {
        assertThat(r.out()).contains(id + " restarted");
      }
      assertThat(r.out())
          .contains("m1 restarted")
          .contains("m2 restarted")
          .contains("m3 restarted");
      assertThat(data.errors()).as("write errors").isEmpty();
      assertThat(meta.errors).as("metadata errors").isEmpty();
      assertThat(meta.done.get()).isPositive();
      assertThat(data.verify()).as("acknowledged bytes lost").isZero();
    }
  }

  /** Creates, stats and removes small files until stopped; every failure is kept. */
  private static final class MetaClient {
    final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    final AtomicLong done = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final TesseraFileSystem fs;
    private Thread thread;

    MetaClient(TesseraFileSystem fs) {
      this.fs = fs;
    }

    void start() throws Exception {
      fs.mkdirs("/rolling-meta");
      thread =
          new Thread(
              () -> {
                for (long i = 0; !stop.get(); i++) {
                  String path = "/rolling-meta/f" + i;
                  try {
                    fs.createFile(path, CreateOptions.erasure(2, 1)).close();
                    fs.stat(path);
                    fs.delete(path, false);
                    done.incrementAndGet();
                  } catch (Exception e) {
                    errors.add(path + ": " + e.getMessage());
                  }
                }
              },
              "rolling-meta");
      thread.start();
    }

    void stop() throws InterruptedException {
      stop.set(true);
      thread.join(120_000);
    }
  }
}
