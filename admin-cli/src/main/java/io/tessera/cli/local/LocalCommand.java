package io.tessera.cli.local;

import io.tessera.cli.SettingsCommand;
import io.tessera.cli.console.ConsoleTokenCreateCommand;
import io.tessera.cli.options.PositiveDuration;
import io.tessera.client.CreateOptions;
import io.tessera.client.LayoutPolicy;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.client.admin.ConsoleAdmin;
import io.tessera.client.admin.QosApp;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.Config;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.rpc.HostPort;
import io.tessera.localcluster.ClusterPlan;
import io.tessera.localcluster.InProcessCluster;
import io.tessera.localcluster.LauncherLock;
import io.tessera.localcluster.LocalCluster;
import io.tessera.localcluster.ProcessCluster;
import io.tessera.meta.registry.DefaultLayout;
import io.tessera.qos.QosConfigKeys;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tessera local}: a whole cluster on this machine, in the foreground. */
@Command(
    name = "local",
    mixinStandardHelpOptions = true,
    description = {
      "Start a whole cluster on this machine: meta replicas and data servers on 127.0.0.1, "
          + "one OS process each (or all in this JVM with --in-process).",
      "Runs in the foreground; Ctrl-C or SIGTERM stops every server cleanly. Started again on the same "
          + "--dir it finds every file where it was. <dir>/cluster.json names every server with its PID and "
          + "the command that starts it again; logs are in <dir>/logs/.",
      "Every server serves /metrics on its port + 1000; the meta replicas also the web console (its URL is"
          + " printed; an admin token is in <dir>/console.token). Not with --in-process."
    })
public final class LocalCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--dir",
      defaultValue = "tessera-data",
      description = "cluster directory (default: ${DEFAULT-VALUE})")
  Path dir;

  @Option(
      names = "--meta-replicas",
      paramLabel = "N",
      description =
          "meta replicas: 1, or 3, 5 or 7 to survive 1, 2 or 3 failures (default 3, or as the"
              + " cluster in --dir has)")
  Integer metaCount;

  @Option(
      names = "--data-servers",
      description = "data servers (default 6, or as the cluster in --dir has)")
  Integer dataCount;

  @Option(
      names = "--port-base",
      description =
          "first port; meta use base.., data base+20.., HTTP (console, metrics) each port + 1000"
              + " (default 9860)")
  Integer portBase;

  @Option(
      names = "--data-nice",
      defaultValue = "" + ProcessCluster.DEFAULT_DATA_NICE,
      paramLabel = "N",
      description = {
        "CPU niceness of the data servers (default ${DEFAULT-VALUE}; 0: as the meta replicas). On one "
            + "machine the meta group's Raft rounds (every metadata change, every snapshot) would otherwise wait for a "
            + "core behind bulk data work"
      })
  int dataNice;

  @Option(
      names = "--qos",
      description =
          "start a QoS proxy in front of each data server: applications then share the servers by"
              + " the weights set with tessera qos (a cluster started with proxies keeps them). With"
              + " -Dtessera.qos.placement=embedded the data servers schedule their own requests"
              + " instead: the same shares without the proxies' extra hop (give it at every start)")
  boolean qos;

  @Option(
      names = "--nfs",
      description =
          "start an NFS gateway exporting the whole namespace, read-write, to 127.0.0.1 and ::1"
              + " (NFSv3 on port base+18, MOUNT on base+19; a cluster started with it keeps it)")
  boolean nfs;

  @Option(
      names = "--in-process",
      description = "run every server inside this JVM (faster start, no isolation)")
  boolean inProcess;

  @Option(names = "-D", paramLabel = "KEY=VALUE", description = "a setting passed to every server")
  Map<String, String> defines = new HashMap<>();

  @Option(
      converter = PositiveDuration.class,
      names = "--ready-timeout",
      defaultValue = "120s",
      description = "how long to wait for the cluster to " + "come up (default: ${DEFAULT-VALUE})")
  Duration readyTimeout;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (dataNice < 0 || dataNice > 19) {
      throw new IllegalArgumentException(
          "--data-nice "
              + dataNice
              + " is outside 0..19 (a lower priority than the "
              + "meta replicas; 0 for the same)");
    }
    if (metaCount != null && (metaCount < 1 || metaCount > 7 || metaCount % 2 == 0)) {
      throw new IllegalArgumentException(
          "--meta-replicas "
              + metaCount
              + ": use 1, 3, 5 or 7. A group needs a majority to change anything, so an even"
              + " number survives no more failures than one fewer ("
              + (metaCount == 2 ? "a group of 2 survives none" : "it only adds work")
              + ")");
    }
    // checked here, before any server starts (each would refuse it and exit)
    SettingsCommand.requireServerSettings("-D", defines.keySet());
    SettingsCommand.requireValidServerSettings(Config.of(defines));
    LauncherLock owned = LauncherLock.acquire(dir);
    ClusterPlan plan;
    try {
      plan = plan();
      if (!inProcess) {
        plan = plan.withHttp();
      }
      if (inProcess && (plan.qos() || plan.nfs())) {
        throw new IllegalArgumentException(
            (plan.qos() ? "--qos starts proxies" : "--nfs starts a gateway")
                + " as processes of their own: leave out --in-process");
      }
      plan.requirePortsFree();
    } catch (Exception e) {
      owned.close();
      throw e;
    }
    long start = System.nanoTime();
    LocalCluster cluster;
    if (inProcess) {
      cluster = InProcessCluster.start(plan, Config.of(defines));
    } else {
      List<String> extra = new ArrayList<>();
      defines.forEach((k, v) -> extra.add("-D" + k + "=" + v));
      cluster =
          ProcessCluster.start(
              plan,
              ProcessCluster.javaLauncher(ProcessCluster.defaultJvmOptions()),
              extra,
              dataNice);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    System.err.println("Stopping every server...");
                    cluster.close();
                    ClusterFile.update(
                        cluster.plan().clusterFile(), f -> f.stopped(System.currentTimeMillis()));
                    System.err.println("Stopped.");
                  } catch (Exception e) {
                    System.err.println(
                        "tessera: not every server stopped cleanly: " + e.getMessage());
                  } finally {
                    try {
                      owned.close();
                    } catch (IOException e) {
                      // the process is ending: the lock goes with it
                    }
                    stopped.countDown();
                  }
                },
                "local-shutdown"));
    ClusterStatus status = cluster.awaitReady(readyTimeout);
    if (plan.http()) {
      ensureConsoleToken(cluster);
    }
    printEndpoints(
        out,
        plan,
        status,
        Duration.ofNanos(System.nanoTime() - start),
        rootDefault(cluster),
        embeddedQos(),
        plan.qos() || embeddedQos() ? qosSettings(cluster) : List.of());
    if (cluster instanceof ProcessCluster pc) {
      watch(pc, out, stopped);
    }
    stopped.await();
    return 0;
  }

  /**
   * Gives the console an admin token in {@code <dir>/console.token} (mode 0600): a new one unless
   * the file holds a token the cluster still accepts (kept across restarts; a revoked one is
   * replaced).
   */
  private static void ensureConsoleToken(LocalCluster cluster) throws IOException {
    Path file = cluster.plan().consoleTokenFile();
    try (TesseraFileSystem fs = cluster.connect()) {
      ConsoleAdmin console = fs.admin().console();
      if (Files.exists(file)
          && console.tokenSet().verify(Files.readString(file).trim()).isPresent()) {
        return;
      }
      ConsoleTokenCreateCommand.writePrivate(
          file, console.createToken("local-admin", true).bearer());
    }
  }

  /** The QoS settings the cluster keeps (a restarted cluster keeps what was set before). */
  private static List<QosApp> qosSettings(LocalCluster cluster) throws IOException {
    try (TesseraFileSystem fs = cluster.connect()) {
      return fs.admin().qos().list();
    }
  }

  /** The line that tells a user of a cluster with proxies how applications share it now. */
  static String qosBanner(List<QosApp> apps) {
    if (apps.isEmpty()) {
      return "QoS: every application at weight 1 until 'tessera qos set APP --weight W'; see"
          + " 'tessera qos status'";
    }
    List<String> set = new ArrayList<>();
    for (QosApp a : apps) {
      double w = a.weight();
      set.add(
          a.app()
              + " weight "
              + (w == Math.rint(w) ? String.valueOf((long) w) : String.valueOf(w)));
    }
    return "QoS: "
        + String.join(", ", set)
        + "; every other application at weight 1 ('tessera qos list' shows reservations and"
        + " limits, 'tessera qos status' what each gets)";
  }

  /**
   * The root directory's default layout; a new cluster gets the widest of 6+3, 4+2 and 2+1 its data
   * servers can hold (files survive losing servers unless they ask for no parity).
   */
  private static LayoutPolicy rootDefault(LocalCluster cluster) throws IOException {
    ClusterPlan plan = cluster.plan();
    try (TesseraFileSystem fs = cluster.connect()) {
      LayoutPolicy now = fs.stat("/").defaultLayout();
      if (now != null) {
        return now;
      }
      LayoutPolicyProto widest = DefaultLayout.widestSafe(plan.dataCount(), 1 << 20);
      return fs.mkdirs(
              "/",
              CreateOptions.erasure(widest.getDataUnits(), widest.getParityUnits())
                  .stripeUnit(widest.getStripeUnit()))
          .defaultLayout();
    }
  }

  private ClusterPlan plan() throws IOException {
    Path file = dir.resolve(ClusterFile.NAME);
    if (Files.exists(file)) {
      ClusterFile existing = ClusterFile.read(file);
      int m = existing.meta().size();
      int d = existing.data().size();
      int base = HostPort.parse(existing.meta().get(0).address()).port();
      if ((metaCount != null && metaCount != m)
          || (dataCount != null && dataCount != d)
          || (portBase != null && portBase != base)) {
        throw new IllegalArgumentException(
            "the cluster in "
                + dir
                + " has "
                + m
                + " meta replicas and "
                + d
                + " data servers on port base "
                + base
                + "; start it as it is, or use another --dir");
      }
      ClusterPlan again = new ClusterPlan(dir, m, d, base);
      again = !embeddedQos() && (qos || !existing.proxies().isEmpty()) ? again.withQos() : again;
      return nfs || !existing.nfs().isEmpty() ? again.withNfs() : again;
    }
    ClusterPlan fresh =
        new ClusterPlan(
            dir,
            metaCount == null ? 3 : metaCount,
            dataCount == null ? 6 : dataCount,
            portBase == null ? ClusterPlan.DEFAULT_PORT_BASE : portBase);
    fresh = qos && !embeddedQos() ? fresh.withQos() : fresh;
    return nfs ? fresh.withNfs() : fresh;
  }

  /** Whether the data servers schedule themselves: no proxies then, whatever --qos says. */
  private boolean embeddedQos() {
    return QosConfigKeys.Placement.EMBEDDED.equals(
        defines.get(QosConfigKeys.Placement.PLACEMENT.key()));
  }

  private static void printEndpoints(
      PrintWriter out,
      ClusterPlan plan,
      ClusterStatus s,
      Duration took,
      LayoutPolicy layout,
      boolean embeddedQos,
      List<QosApp> qos) {
    out.printf("Tessera local cluster in %s%n", plan.dir());
    for (var p : plan.metaPeers()) {
      boolean leader = s.replicas().stream().anyMatch(r -> r.id().equals(p.id()) && r.leader());
      out.printf(
          "  meta %-6s %-18s raft :%d%s%n",
          p.id(), p.clientAddress(), p.raftPort(), leader ? "  (leader)" : "");
    }
    for (var d : s.dataServers()) {
      out.printf(
          "  data %-6s %-18s %s%s%n",
          d.id(),
          d.address(),
          d.up() ? "up" : "down",
          plan.qos()
              ? "  behind QoS proxy " + plan.proxyAddress(d.id())
              : embeddedQos ? "  scheduling its own requests (QoS embedded)" : "");
    }
    if (plan.qos() || embeddedQos) {
      out.println(qosBanner(qos));
    }
    if (plan.nfs()) {
      out.printf(
          "NFS: nfs-ls 'nfs://127.0.0.1/?version=3&nfsport=%d&mountport=%d' (NFSv3 at %s, MOUNT"
              + " at port %d; exported to this machine only)%n",
          plan.nfsPort(), plan.mountPort(), plan.nfsAddress(), plan.mountPort());
    }
    if (plan.http()) {
      out.printf(
          "Console: %s  (admin token in %s; every server's /metrics is in cluster.json)%n",
          plan.consoleUrl(), plan.consoleTokenFile());
    }
    out.printf(
        "Credentials: %s (0600; commands find it through cluster.json; tessera credentials issue"
            + " makes more)%n",
        shown(plan.adminCredentials()));
    out.printf(
        "Ready in %.1f s. Meta: %s  Logs: %s%n",
        took.toMillis() / 1000.0, plan.metaAddresses(), plan.dir().resolve("logs"));
    out.printf(
        "Default layout: %s (the root directory's; 'fs mkdir -p --ec K+M /' changes it)%n", layout);
    // commands find ./tessera-data/cluster.json by themselves; any other directory needs naming
    boolean found =
        plan.dir()
            .toAbsolutePath()
            .normalize()
            .equals(Path.of("tessera-data").toAbsolutePath().normalize());
    String meta = found ? "" : " --meta " + plan.metaAddresses();
    out.printf(
        "Try: ./tessera fs put FILE /FILE%s ; ./tessera cluster status%s.  Stop: Ctrl-C%n",
        meta, meta);
    out.flush();
  }

  /** A path as the user gave it: relative to the working directory when it lies below it. */
  private static Path shown(Path p) {
    Path here = Path.of("").toAbsolutePath();
    return p.startsWith(here) ? here.relativize(p) : p;
  }

  /** Reports servers that exit while the cluster runs (killed by an operator or a test). */
  private static void watch(ProcessCluster pc, PrintWriter out, CountDownLatch stopped) {
    Thread t =
        new Thread(
            () -> {
              Set<Process> reported = new HashSet<>();
              while (stopped.getCount() > 0 && !pc.isStopping()) {
                for (Map.Entry<String, Process> e : pc.processes().entrySet()) {
                  Process p = e.getValue();
                  if (!p.isAlive() && !pc.isStopping() && reported.add(p)) {
                    out.printf(
                        "%s (pid %d) exited with code %d; tessera server restart %s starts it"
                            + " again%n",
                        e.getKey(), p.pid(), p.exitValue(), e.getKey());
                    out.flush();
                  }
                }
                try {
                  Thread.sleep(500);
                } catch (InterruptedException ex) {
                  return;
                }
              }
            },
            "local-watch");
    t.setDaemon(true);
    t.start();
  }
}
