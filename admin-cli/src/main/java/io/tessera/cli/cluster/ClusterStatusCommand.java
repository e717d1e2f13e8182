package io.tessera.cli.cluster;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.recover.RecoverStatusCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.config.DataSize;
import java.io.PrintWriter;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code tessera cluster status}: meta replicas with the leader, data servers with state, space and
 * rebuilds.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Show the meta replicas (and which leads), every data server with its state and space, and the "
          + "progress of rebuilds.",
      "Data server states: up; DOWN (silent past tessera.meta.data-server-timeout; clients read around it); "
          + "recovering (back after being down: the shards it missed are being rebuilt, clients do not read from it "
          + "yet); draining (decommissioned, or DOWN past tessera.meta.replace-after: its units move to other "
          + "servers); retired (drained: no file uses it; a decommissioned server may then be stopped).",
      "TO MOVE counts, for a draining server, the files that still have a unit on it.",
      "Removed files are deleted from the data servers in the background; one that is away keeps its removed "
          + "files counted until it is back and has deleted them too."
    })
public final class ClusterStatusCommand extends ConnectedCommand {
  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  /**
   * A follower the leader has not heard from for longer than an election timeout is unreachable.
   */
  private static String replicaState(ClusterStatus.Replica r) {
    if (r.leader()) {
      return "leader";
    }
    if (r.lastContactMillisAgo() > 3000) {
      return String.format(
          Locale.ROOT, "UNREACHABLE (last heard %.0f s ago)", r.lastContactMillisAgo() / 1000.0);
    }
    return "follower";
  }

  private static String stateOf(ClusterStatus.DataServer d) {
    return switch (d.state()) {
      case "up", "recovering", "draining", "retired" -> d.state();
      default -> d.state().toUpperCase(Locale.ROOT);
    };
  }

  private static String notes(ClusterStatus.DataServer d) {
    StringBuilder b = new StringBuilder();
    if (d.decommissioned()) {
      b.append(" decommissioned").append("retired".equals(d.state()) ? ": may be stopped" : "");
    }
    if (d.leftoverFiles() > 0) {
      b.append(" (holds old shards of ")
          .append(d.leftoverFiles())
          .append(" moved files: dropped when reachable)");
    }
    return b.toString();
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    PrintWriter out = out();
    ClusterStatus s = fs.admin().status();
    if (json) {
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s));
      return 0;
    }
    out.printf("Meta replicas (epoch %d):%n", s.epoch());
    boolean leaderless = s.replicas().stream().noneMatch(ClusterStatus.Replica::leader);
    for (ClusterStatus.Replica r : s.replicas()) {
      // a replica without a leader knows nothing of the others' health
      out.printf(
          "  %-6s %-22s %s%n", r.id(), r.address(), leaderless ? "no leader" : replicaState(r));
    }
    if (leaderless) {
      out.println(
          "No meta leader (an election is running, or fewer than half of the replicas are up): data"
              + " servers are shown as the last leader recorded them; whether they are alive is known again once a"
              + " leader is elected.");
    }
    long up = s.dataServers().stream().filter(ClusterStatus.DataServer::up).count();
    out.printf("Data servers (%d of %d up):%n", up, s.dataServers().size());
    out.printf(
        "  %-8s %-22s %-10s %12s %12s %12s %-12s %8s %s%n",
        "ID",
        "ADDRESS",
        "STATE",
        "USED",
        "FREE",
        "CAPACITY",
        "LAST HEARD",
        "TO MOVE",
        "STALE FILES");
    for (ClusterStatus.DataServer d : s.dataServers()) {
      boolean leaving = d.state().equals("draining") || d.state().equals("retired");
      out.printf(
          "  %-8s %-22s %-10s %12s %12s %12s %-12s %8s %d%s%n",
          d.id(),
          d.address(),
          stateOf(d),
          DataSize.format(d.usedBytes()),
          DataSize.format(d.freeBytes()),
          DataSize.format(d.capacityBytes()),
          d.lastHeartbeatMillisAgo() < 0
              ? "unknown"
              : String.format(Locale.ROOT, "%.1fs ago", d.lastHeartbeatMillisAgo() / 1000.0),
          leaving ? String.valueOf(d.filesPlaced()) : "-",
          d.filesToRebuild(),
          notes(d));
    }
    out.printf(
        "Removed files whose shards are still to be deleted: %s%n",
        s.filesToReclaim() >= 1_000_000 ? "over 1000000" : String.valueOf(s.filesToReclaim()));
    RecoverStatusCommand.printRebuilds(out, s.recovery());
    out.println(RecoverStatusCommand.redundancy(s));
    return 0;
  }
}
