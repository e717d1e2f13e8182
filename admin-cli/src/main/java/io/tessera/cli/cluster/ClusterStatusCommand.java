package io.tessera.cli.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ClusterOptions;
import io.tessera.client.ClusterStatus;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.DataSize;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tessera cluster status}: meta replicas with the leader, data servers with state and space. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = "Show the meta replicas (and which leads) and every data server with its state and space.")
public final class ClusterStatusCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  ClusterOptions cluster;

  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  /** A follower the leader has not heard from for longer than an election timeout is unreachable. */
  private static String replicaState(ClusterStatus.Replica r) {
    if (r.leader()) {
      return "leader";
    }
    if (r.lastContactMillisAgo() > 3000) {
      return String.format(java.util.Locale.ROOT, "UNREACHABLE (last heard %.0f s ago)", r.lastContactMillisAgo() / 1000.0);
    }
    return "follower";
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    try (TesseraFileSystem fs = cluster.connect()) {
      ClusterStatus s = fs.clusterStatus();
      if (json) {
        out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s));
        return 0;
      }
      out.printf("Meta replicas (epoch %d):%n", s.epoch());
      for (ClusterStatus.Replica r : s.replicas()) {
        out.printf("  %-6s %-22s %s%n", r.id(), r.address(), replicaState(r));
      }
      long up = s.dataServers().stream().filter(ClusterStatus.DataServer::up).count();
      out.printf("Data servers (%d of %d up):%n", up, s.dataServers().size());
      out.printf("  %-8s %-22s %-5s %12s %12s %12s %s%n", "ID", "ADDRESS", "STATE", "USED", "FREE", "CAPACITY",
          "LAST HEARD");
      for (ClusterStatus.DataServer d : s.dataServers()) {
        out.printf("  %-8s %-22s %-5s %12s %12s %12s %.1fs ago%n", d.id(), d.address(), d.up() ? "up" : "DOWN",
            DataSize.format(d.usedBytes()), DataSize.format(d.freeBytes()), DataSize.format(d.capacityBytes()),
            d.lastHeartbeatMillisAgo() / 1000.0);
      }
      return 0;
    }
  }
}
