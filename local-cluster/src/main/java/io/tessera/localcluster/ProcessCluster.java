package io.tessera.localcluster;

import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;
import java.io.File;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * One OS process per server, as in a real deployment. Each process's command line is kept in
 * cluster.json so an operator or a test can kill any server and start it again.
 */
public final class ProcessCluster implements LocalCluster {
  private final ClusterPlan plan;
  private final List<String> launcher;
  private final Map<String, Process> processes = new LinkedHashMap<>();
  private final Map<String, List<String>> commands = new LinkedHashMap<>();
  private final ClassArchives archives;

  /** JVM options every server gets so that it loads RocksDB's library without unpacking it. */
  private final List<String> nativeOptions;

  private volatile boolean stopping;

  /** Settings given to every server ({@code -Dkey=value}), which its clients must match. */
  private final Map<String, String> serverSettings;

  private ProcessCluster(ClusterPlan plan, List<String> launcher, List<String> extraArgs)
      throws IOException {
    this.plan = plan;
    this.launcher = ClassPathFile.inLauncher(launcher, plan.dir());
    this.serverSettings = new LinkedHashMap<>();
    for (String a : extraArgs) {
      int eq = a.indexOf('=');
      if (a.startsWith("-D") && eq > 2) {
        serverSettings.put(a.substring(2, eq), a.substring(eq + 1));
      }
    }
    // the class path as given: the archives and native libraries are found from its jars
    this.archives = ClassArchives.forLauncher(launcher);
    this.nativeOptions = NativeLibraries.options(StartupCaches.classPath(launcher));
  }

  /** The command that runs the Tessera CLI in a fresh JVM with this JVM's classpath. */
  public static List<String> javaLauncher(List<String> jvmOptions) {
    return javaLauncher(System.getProperty("java.class.path"), jvmOptions);
  }

  /**
   * The command that runs the Tessera CLI in a fresh JVM with {@code classPath}. Servers get a
   * class archive (a cheaper start and restart) only when it names jars alone.
   */
  public static List<String> javaLauncher(String classPath, List<String> jvmOptions) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add("io.tessera.cli.Tessera");
    return cmd;
  }

  /** Default server JVM options: small heaps, one GC thread (many JVMs share few cores). */
  public static List<String> defaultJvmOptions() {
    return List.of(
        "-Xms64m",
        "-Xmx512m",
        "-XX:+UseSerialGC",
        "-XX:+ExitOnOutOfMemoryError",
        "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSS");
  }

  /**
   * Extra JVM options of data servers: their hot paths run in RocksDB and JIT intrinsics, so the
   * quick C1 compiler alone serves them and spares the cores that many C2-compiling JVMs would
   * take. Meta replicas keep C2: their Ratis and protobuf paths are Java.
   */
  public static final List<String> DATA_SERVER_JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1");

  /**
   * Extra JVM options of meta replicas. They decode stripes when recovery rebuilds shards, on
   * Backblaze's table loop: without {@code jdk.incubator.vector}, as the Vector API loop would
   * first need its warm-up thread and a C2 compile, and a replica that becomes leader mid-rebuild
   * paid those while the cluster was degraded. Over a whole rebuild both loops cost the same.
   *
   * <p>Their heap starts at its full size (the -Xmx of {@link #defaultJvmOptions()}), so the serial
   * collector never gives pages back only to fault them in again (a rebuild's stripe buffers drive
   * the leader into frequent full collections), and metaspace starts at 64 MiB, so loading the
   * recovery classes forces no full collections of its own.
   */
  public static final List<String> META_SERVER_JVM_OPTIONS =
      List.of("-Xms512m", "-XX:MetaspaceSize=64m");

  /**
   * Extra JVM options of NFS gateways: a gateway is a client that codes stripes for every call it
   * runs at once (a truncate inside a stripe of a 4+2 file writes a stripe of zeros), so it gets
   * the heap of a busy client.
   */
  public static final List<String> NFS_GATEWAY_JVM_OPTIONS = List.of("-Xmx1g");

  /**
   * CPU niceness data servers start with. On one machine every metadata change and every snapshot
   * is a Raft round through three meta processes, each hop waiting for a core behind the data
   * servers' bulk work. Separate machines need none of this.
   */
  public static final int DEFAULT_DATA_NICE = 5;

  /** Starts every server of the plan and writes cluster.json; does not wait for readiness. */
  public static ProcessCluster start(
      ClusterPlan plan, List<String> launcher, List<String> extraArgs) throws IOException {
    return start(plan, launcher, extraArgs, id -> List.of());
  }

  /**
   * Like {@link #start(ClusterPlan, List, List)} with data servers at CPU niceness {@code
   * dataNice}.
   */
  public static ProcessCluster start(
      ClusterPlan plan, List<String> launcher, List<String> extraArgs, int dataNice)
      throws IOException {
    return start(plan, launcher, extraArgs, id -> List.of(), dataNice);
  }

  /**
   * Like {@link #start(ClusterPlan, List, List)}, each server's command line prefixed with {@code
   * wrapper.apply(id)} (e.g. {@code ip netns exec NS}, which keeps the process id).
   */
  public static ProcessCluster start(
      ClusterPlan plan,
      List<String> launcher,
      List<String> extraArgs,
      Function<String, List<String>> wrapper)
      throws IOException {
    return start(plan, launcher, extraArgs, wrapper, DEFAULT_DATA_NICE);
  }

  private static ProcessCluster start(
      ClusterPlan plan,
      List<String> launcher,
      List<String> extraArgs,
      Function<String, List<String>> wrapper,
      int dataNice)
      throws IOException {
    Files.createDirectories(plan.dir().resolve("logs"));
    ClusterCredentials.ensure(plan);
    ProcessCluster c = new ProcessCluster(plan, launcher, extraArgs);
    List<ClusterFile.Node> meta = new ArrayList<>();
    List<ClusterFile.Node> data = new ArrayList<>();
    for (var p : plan.metaPeers()) {
      c.commands.put(
          p.id(),
          wrapped(
              wrapper.apply(p.id()),
              c.command(
                  c.withArchive("meta", META_SERVER_JVM_OPTIONS),
                  plan.metaArgs(p.id()),
                  extraArgs)));
      meta.add(
          new ClusterFile.Node(
                  p.id(),
                  p.clientAddress(),
                  0,
                  plan.metaDir(p.id()).toString(),
                  c.commands.get(p.id()))
              .withMetrics(plan.metricsUrl(p.id()))
              .withRaftAddress(p.raftAddress()));
    }
    for (String id : plan.dataIds()) {
      c.commands.put(
          id,
          wrapped(
              wrapper.apply(id),
              wrapped(
                  niced(dataNice),
                  c.command(
                      c.withArchive("data", DATA_SERVER_JVM_OPTIONS),
                      plan.dataArgs(id),
                      extraArgs))));
      data.add(
          new ClusterFile.Node(
                  id, plan.dataAddress(id), 0, plan.dataDir(id).toString(), c.commands.get(id))
              .withMetrics(plan.metricsUrl(id)));
    }
    List<ClusterFile.Node> proxies = new ArrayList<>();
    if (plan.qos()) {
      for (String dataId : plan.dataIds()) {
        String id = ClusterPlan.proxyId(dataId);
        c.commands.put(
            id,
            wrapped(
                wrapper.apply(dataId),
                c.command(c.withArchive("proxy", List.of()), plan.proxyArgs(dataId), extraArgs)));
        proxies.add(
            new ClusterFile.Node(
                    id, plan.proxyAddress(dataId), 0, plan.dir().toString(), c.commands.get(id))
                .withMetrics(plan.metricsUrl(id)));
      }
    }
    List<ClusterFile.Node> gateways = new ArrayList<>();
    if (plan.nfs()) {
      String id = ClusterPlan.NFS_ID;
      c.commands.put(
          id, c.command(c.withArchive("nfs", NFS_GATEWAY_JVM_OPTIONS), plan.nfsArgs(), extraArgs));
      gateways.add(
          new ClusterFile.Node(
              id,
              plan.nfsAddress(),
              0,
              plan.dir().toString(),
              c.commands.get(id),
              plan.mountPort(),
              plan.metricsUrl(id),
              null));
    }
    ClusterFile file =
        new ClusterFile(
            meta,
            data,
            proxies,
            gateways,
            plan.http()
                ? new ClusterFile.Console(plan.consoleUrl(), plan.consoleTokenFile().toString())
                : null,
            plan.adminCredentials().toString());
    file.write(plan.clusterFile());
    try {
      for (String id : c.commands.keySet()) {
        c.launch(id);
      }
    } catch (IOException e) {
      c.close();
      throw e;
    }
    return c;
  }

  /**
   * {@code nice -n N} (which keeps the process id), or nothing for 0 or where there is no nice(1).
   */
  private static List<String> niced(int nice) {
    if (nice == 0) {
      return List.of();
    }
    for (String dir :
        System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "nice"))) {
        return List.of(Path.of(dir, "nice").toString(), "-n", String.valueOf(nice));
      }
    }
    return List.of();
  }

  private static List<String> wrapped(List<String> prefix, List<String> cmd) {
    List<String> out = new ArrayList<>(prefix);
    out.addAll(cmd);
    return out;
  }

  /**
   * A kind of server's JVM options with those of its class archive and of RocksDB's unpacked
   * library.
   */
  private List<String> withArchive(String kind, List<String> jvmOptions) {
    List<String> out = new ArrayList<>(jvmOptions);
    out.addAll(nativeOptions);
    out.addAll(archives.options(kind, jvmOptions));
    return out;
  }

  /** The launcher with role-specific JVM options inserted before its main class. */
  private List<String> command(
      List<String> jvmOptions, List<String> serverArgs, List<String> extraArgs) {
    List<String> cmd = new ArrayList<>(launcher);
    int main = cmd.lastIndexOf("io.tessera.cli.Tessera");
    int cp = cmd.indexOf("-cp");
    cmd.addAll(cp >= 0 ? cp : Math.max(main, 0), jvmOptions);
    cmd.addAll(serverArgs);
    cmd.addAll(extraArgs);
    return cmd;
  }

  private synchronized void launch(String id) throws IOException {
    launch(id, List.of(), Map.of());
  }

  private synchronized void launch(
      String id, List<String> extraArgs, Map<String, String> environment) throws IOException {
    Path log = plan.logFile(id);
    List<String> cmd = new ArrayList<>(commands.get(id));
    cmd.addAll(extraArgs);
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .redirectErrorStream(true)
            .redirectOutput(Redirect.appendTo(log.toFile()));
    pb.environment().putAll(environment);
    Process p = pb.start();
    processes.put(id, p);
    ClusterFile.update(plan.clusterFile(), f -> f.withPid(id, p.pid()));
  }

  @Override
  public void checkAlive() throws IOException {
    for (String id : processes().keySet()) {
      checkAlive(id);
    }
  }

  /** Fails with the server's last log line when it has exited. */
  private void checkAlive(String id) throws IOException {
    Process p = process(id);
    if (p != null && !p.isAlive()) {
      Path log = plan.logFile(id);
      List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
      String last =
          lines.stream()
              .filter(l -> l.startsWith("tessera:"))
              .reduce((a, b) -> b)
              .orElse(lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1));
      throw new IOException(
          id
              + " exited with code "
              + p.exitValue()
              + " while starting: "
              + last
              + " (log: "
              + log
              + ")");
    }
  }

  /**
   * Servers an operator started again with their cmd are not our children; cluster.json has their
   * PIDs. Each is stopped with SIGTERM when its command line proves it is that server.
   */
  private void stopServersRestartedByHand() {
    ClusterFile file;
    try {
      file = ClusterFile.read(plan.clusterFile());
    } catch (IOException e) {
      return;
    }
    List<ProcessHandle> stopped = new ArrayList<>();
    for (ClusterFile.Node n : file.all()) {
      Process child = processes.get(n.id());
      if (child != null && child.pid() == n.pid()) {
        continue;
      }
      ProcessHandle.of(n.pid())
          .filter(h -> ServerCommandLine.runs(h, n.id(), n.dir()))
          .ifPresent(
              h -> {
                h.destroy();
                stopped.add(h);
              });
    }
    for (ProcessHandle h : stopped) {
      try {
        h.onExit().get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        h.destroyForcibly();
      }
    }
  }

  /** Whether {@link #close()} has begun (exits are then expected). */
  public boolean isStopping() {
    return stopping;
  }

  @Override
  public ClusterPlan plan() {
    return plan;
  }

  /** A client's settings for this cluster, as its administrator, with the servers' security. */
  @Override
  public Config clientConfig() {
    String security = serverSettings.get(SecurityConfigKeys.SECURITY.key());
    Config c = plan.clientConfig();
    return security == null ? c : c.with(SecurityConfigKeys.SECURITY, security);
  }

  public synchronized Process process(String id) {
    return processes.get(id);
  }

  public synchronized Map<String, Process> processes() {
    return Map.copyOf(processes);
  }

  /**
   * Sends a real signal (KILL, TERM, STOP, CONT) to a server and, for KILL, waits for it to die.
   */
  public void signal(String id, String signal) throws IOException, InterruptedException {
    Process p = process(id);
    if (p == null) {
      throw new IllegalArgumentException("no server " + id);
    }
    Process kill =
        new ProcessBuilder("kill", "-" + signal, String.valueOf(p.pid())).inheritIO().start();
    kill.waitFor();
    if (signal.equals("KILL")) {
      p.waitFor(30, TimeUnit.SECONDS);
    }
  }

  /**
   * Starts a server again with its recorded command line (after it was killed) and waits until it
   * accepts connections on its client port.
   */
  public void restart(String id) throws IOException, InterruptedException {
    restart(id, List.of());
  }

  /**
   * Like {@link #restart(String)} with settings added for this run only (e.g. {@code
   * -Dtessera.data.x=y}).
   */
  public void restart(String id, List<String> extraArgs) throws IOException, InterruptedException {
    restart(id, extraArgs, Map.of());
  }

  /**
   * Like {@link #restart(String, List)} with variables added to the server's environment for this
   * run only (e.g. a preloaded library that moves its clock).
   */
  public void restart(String id, List<String> extraArgs, Map<String, String> environment)
      throws IOException, InterruptedException {
    Process old = process(id);
    if (old != null && old.isAlive()) {
      throw new IllegalStateException(id + " is still running (pid " + old.pid() + ")");
    }
    launch(id, extraArgs, environment);
    int port = plan.clientPort(id);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      checkAlive(id); // others may be down on purpose
      try (Socket s = new Socket(plan.host(id), port)) {
        return;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    throw new IOException(
        id + " did not start listening on port " + port + " within 60 s; see " + plan.logFile(id));
  }

  @Override
  public void close() {
    stopping = true;
    stopServersRestartedByHand();
    List<String> order = new ArrayList<>(processes.keySet());
    Collections.reverse(order); // data servers first, then the meta group
    for (String id : order) {
      Process p = processes.get(id);
      if (p.isAlive()) {
        p.destroy();
      }
    }
    for (String id : order) {
      Process p = processes.get(id);
      try {
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
    archives.settle();
  }
}
