package io.tessera.cli.cluster;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.cli.options.PositiveDuration;
import io.tessera.cli.server.LocalServers;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera cluster rolling-restart}: every server of a local cluster stopped and started
 * again, one at a time, each only once the cluster is whole again, so clients never see more than
 * one server away (what an upgrade does).
 */
@Command(
    name = "rolling-restart",
    mixinStandardHelpOptions = true,
    description = {
      "Restart every server of a local cluster, one at a time, while clients go on: each is stopped"
          + " with SIGTERM and started again with the command line cluster.json keeps for it.",
      "Data servers go first, each once the previous is up with nothing left to rebuild; then QoS"
          + " proxies and NFS gateways; then the meta replicas, the leader last, each once it is"
          + " back in touch with the leader.",
      "Refused while a data server is down or files wait for a rebuild: restarting another would"
          + " take more redundancy away than one server's."
    })
public final class RollingRestartCommand implements Callable<Integer> {
  /**
   * A follower the leader heard from this recently is replicating again (the leader contacts each
   * follower several times a second).
   */
  private static final long IN_TOUCH_MILLIS = 2000;

  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(
      names = "--dir",
      defaultValue = "tessera-data",
      description = "the cluster's directory (default: ${DEFAULT-VALUE})")
  Path dir;

  @Option(
      converter = PositiveDuration.class,
      names = "--wait-timeout",
      paramLabel = "DURATION",
      defaultValue = "10m",
      description =
          "how long to wait for each server to be back (and its rebuild done) before giving up"
              + " (default: ${DEFAULT-VALUE})")
  Duration waitTimeout;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    Duration limit = waitTimeout;
    LocalServers servers = new LocalServers(dir);
    cluster.useLocalCluster(dir);
    try (TesseraFileSystem fs = cluster.connect()) {
      ClusterStatus before = fs.admin().status();
      requireWhole(before);
      List<Step> order = order(servers.cluster(), before.leaderId());
      long start = System.nanoTime();
      int restarted = 0;
      for (Step step : order) {
        ClusterFile.Node node = step.node();
        if (LocalServers.running(node).isEmpty()) {
          out.printf("%s is not running: left as it is%n", node.id());
          continue;
        }
        out.printf("%s: stopping, starting again, waiting until it is whole...%n", node.id());
        out.flush();
        long t0 = System.nanoTime();
        LocalServers.stop(node);
        long pid = servers.start(node);
        String back = awaitBack(fs, step, limit);
        out.printf(
            Locale.ROOT,
            "%s restarted (PID %d): %s after %.1f s%n",
            node.id(),
            pid,
            back,
            (System.nanoTime() - t0) / 1e9);
        out.flush();
        restarted++;
      }
      out.printf(
          Locale.ROOT,
          "Restarted %d servers in %.1f s%n",
          restarted,
          (System.nanoTime() - start) / 1e9);
    }
    return 0;
  }

  /** What a server is, which says when it counts as back. */
  private enum Kind {
    META,
    DATA,
    OTHER
  }

  /** One server to restart, as cluster.json lists it. */
  private record Step(ClusterFile.Node node, Kind kind) {}

  /** Data servers, then proxies and gateways, then the meta followers, then the leader. */
  private static List<Step> order(ClusterFile cluster, String leader) {
    List<Step> out = new ArrayList<>();
    cluster.data().forEach(n -> out.add(new Step(n, Kind.DATA)));
    cluster.proxies().forEach(n -> out.add(new Step(n, Kind.OTHER)));
    cluster.nfs().forEach(n -> out.add(new Step(n, Kind.OTHER)));
    cluster.meta().stream()
        .filter(n -> !n.id().equals(leader))
        .forEach(n -> out.add(new Step(n, Kind.META)));
    cluster.meta().stream()
        .filter(n -> n.id().equals(leader))
        .forEach(n -> out.add(new Step(n, Kind.META)));
    return out;
  }

  private static void requireWhole(ClusterStatus s) {
    for (ClusterStatus.DataServer d : s.dataServers()) {
      if (!d.decommissioned() && (!d.up() || d.filesToRebuild() > 0)) {
        throw new IllegalStateException(
            d.id()
                + " is "
                + d.state()
                + (d.filesToRebuild() > 0
                    ? " with " + d.filesToRebuild() + " files to rebuild"
                    : "")
                + ": wait until tessera cluster status shows every data server up, then restart");
      }
    }
  }

  /** Waits until {@code node} serves again as the cluster counts it; says what it waited for. */
  private static String awaitBack(TesseraFileSystem fs, Step step, Duration limit)
      throws IOException, InterruptedException {
    ClusterFile.Node node = step.node();
    long deadline = System.nanoTime() + limit.toNanos();
    String last = "no answer";
    while (System.nanoTime() - deadline < 0) {
      try {
        ClusterStatus s = fs.admin().status();
        switch (step.kind()) {
          case DATA -> {
            var d =
                s.dataServers().stream()
                    .filter(x -> x.id().equals(node.id()))
                    .findFirst()
                    .orElse(null);
            if (d != null && d.up() && d.filesToRebuild() == 0) {
              return "up, nothing left to rebuild";
            }
            last =
                d == null
                    ? "not registered"
                    : d.state() + ", " + d.filesToRebuild() + " files to rebuild";
          }
          case META -> {
            var r =
                s.replicas().stream()
                    .filter(x -> x.id().equals(node.id()))
                    .findFirst()
                    .orElse(null);
            boolean inTouch =
                r != null
                    && (r.leader()
                        || (r.lastContactMillisAgo() >= 0
                            && r.lastContactMillisAgo() < IN_TOUCH_MILLIS));
            if (!s.leaderId().isEmpty() && inTouch) {
              return r.leader() ? "leading" : "following " + s.leaderId();
            }
            last =
                s.leaderId().isEmpty() ? "no leader yet" : "not yet in touch with " + s.leaderId();
          }
          case OTHER -> {
            return "listening";
          }
        }
      } catch (IOException | RuntimeException e) {
        last = e.getMessage(); // the group may be electing: ask again
      }
      Thread.sleep(200);
    }
    throw new IOException(
        node.id() + " was not back within " + Durations.format(limit) + " (" + last + ")");
  }
}
