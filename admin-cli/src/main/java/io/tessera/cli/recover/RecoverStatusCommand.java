package io.tessera.cli.recover;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.client.ClusterStatus;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.DataSize;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tessera recover status}: what is being rebuilt, bytes left, rate, ETA. */
@Command(name = "status", mixinStandardHelpOptions = true,
    description = {"Show, per data server with stale shards, how many files and bytes are left to rebuild, the "
        + "rebuild rate and the time left; per draining server (decommissioned, or down past "
        + "tessera.meta.replace-after), the files and bytes left to move to other servers.",
        "Rebuilds run on the meta leader at up to tessera.meta.rebuild-rate (while clients are busy: "
        + "tessera.meta.rebuild-rate-under-load, with stripe locks writers wait on held at most "
        + "tessera.meta.rebuild-lock-share-under-load of the time); counts of files done restart when the leader "
        + "changes."})
public final class RecoverStatusCommand extends ConnectedCommand {
  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    ClusterStatus s = fs.clusterStatus();
    if (json) {
      out().println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s.recovery()));
      return 0;
    }
    printRebuilds(out(), s.recovery());
    if (s.recovery().rebuilds().stream().allMatch(r -> r.filesLeft() == 0)) {
      long notUp = s.dataServers().stream().filter(d -> !d.up() && !d.state().equals("retired")).count();
      out().println(notUp == 0 ? "Every shard is fully redundant." : notUp + " data server(s) not up; see `tessera cluster status`.");
    }
    return 0;
  }

  /** The rebuild table shared with {@code cluster status}. */
  public static void printRebuilds(PrintWriter out, ClusterStatus.Recovery recovery) {
    if (recovery.rebuilds().isEmpty()) {
      out.println("Rebuilds: none");
      return;
    }
    out.printf("Rebuilds (limit %s/s):%n", recovery.rateLimitBytesPerSecond() == 0 ? "none"
        : DataSize.format(recovery.rateLimitBytesPerSecond()));
    out.printf("  %-8s %-8s %10s %12s %10s %12s %12s %8s %s%n", "SERVER", "WORK", "FILES LEFT", "BYTES LEFT",
        "FILES DONE", "BYTES DONE", "RATE", "ETA", "FAILURES");
    for (ClusterStatus.Rebuild r : recovery.rebuilds()) {
      long eta = r.etaSeconds();
      out.printf("  %-8s %-8s %10d %12s %10d %12s %10s/s %8s %d%s%n", r.server(), r.draining() ? "move off" : "rebuild",
          r.filesLeft(),
          DataSize.format(r.bytesLeft()), r.filesDone(), DataSize.format(r.bytesDone()),
          DataSize.format((long) r.bytesPerSecond()), eta < 0 ? "?" : eta + "s", r.failures(),
          r.lastError().isEmpty() ? "" : " (last: " + r.lastError() + ")");
    }
  }
}
