package io.tessera.bench;

import io.tessera.cli.options.ClusterPaths;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.rpc.HostPort;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tessera bench nfs}: small-file creates per second through an NFS gateway. */
@Command(
    name = "nfs",
    mixinStandardHelpOptions = true,
    description = {
      "Small files through an NFS gateway: T threads, each on its own connection, CREATE N files"
          + " in all (and WRITE --size bytes to each, FILE_SYNC), as root.",
      "Compare with 'tessera bench meta' on the same cluster: the gateway's cost per create."
    })
public final class NfsBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--nfs",
      paramLabel = "HOST:PORT",
      description =
          "the gateway (MOUNT on the same port; default: the \"nfs\" entry of"
              + " tessera-data/cluster.json)")
  String gateway;

  @Option(
      names = "--threads",
      defaultValue = "4",
      description = "client threads (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--files",
      defaultValue = "10000",
      description = "files in all (default ${DEFAULT-VALUE})")
  int files;

  @Option(
      names = "--size",
      defaultValue = "0",
      description = "bytes written to each file (default ${DEFAULT-VALUE}: empty files)")
  int size;

  @Option(
      names = "--dir",
      defaultValue = "/bench/nfs",
      description = "cluster directory for the files (made if missing)")
  String dir;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    if (threads < 1 || files < threads || size < 0 || size > 1 << 20) {
      throw new IllegalArgumentException(
          "--threads must be >= 1, --files >= --threads, --size from 0 to 1048576");
    }
    InetSocketAddress at = address();
    String run = "run-" + ProcessHandle.current().pid();
    List<NfsConnection> conns = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      byte[][] dirs = new byte[threads][];
      for (int t = 0; t < threads; t++) {
        NfsConnection c = new NfsConnection(at);
        conns.add(c);
        byte[] parent = c.mount("/");
        for (String part : (ClusterPaths.absolute(dir) + "/" + run).substring(1).split("/")) {
          parent = c.mkdir(parent, part);
        }
        dirs[t] = parent;
      }
      int warm = Math.min(files, 1000);
      timed(pool, conns, dirs, "warm-", warm);
      double seconds = timed(pool, conns, dirs, "f-", files);
      out.printf(
          Locale.ROOT,
          "creates: %.0f files/s through NFS (%d files%s, %d threads, %.2f s; untimed warm-up of"
              + " %d)%n",
          files / seconds,
          files,
          size == 0 ? "" : " of " + size + " bytes written FILE_SYNC",
          threads,
          seconds,
          warm);
      out.printf("files left in %s/%s%n", ClusterPaths.absolute(dir), run);
      return 0;
    } finally {
      pool.shutdownNow();
      for (NfsConnection c : conns) {
        c.close();
      }
    }
  }

  private InetSocketAddress address() throws IOException {
    if (gateway != null) {
      HostPort hp = HostPort.parse(gateway);
      return new InetSocketAddress(hp.host(), hp.port());
    }
    Path local = Path.of("tessera-data", ClusterFile.NAME);
    if (Files.exists(local)) {
      List<ClusterFile.Node> nfs = ClusterFile.read(local).nfs();
      if (!nfs.isEmpty()) {
        HostPort hp = HostPort.parse(nfs.get(0).address());
        return new InetSocketAddress(hp.host(), hp.port());
      }
    }
    throw new IllegalArgumentException(
        "no gateway: give --nfs HOST:PORT, or start the cluster with tessera local --nfs");
  }

  private double timed(
      ExecutorService pool, List<NfsConnection> conns, byte[][] dirs, String prefix, int n)
      throws Exception {
    byte[] data = new byte[size];
    return Spread.timed(
        pool,
        threads,
        n,
        (thread, i) -> {
          NfsConnection c = conns.get(thread);
          byte[] f = c.create(dirs[thread], prefix + thread + "-" + i);
          if (size > 0) {
            c.write(f, 0, data);
          }
        });
  }
}
