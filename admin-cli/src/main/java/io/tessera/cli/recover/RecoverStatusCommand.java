package io.tessera.cli.recover;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.config.DataSize;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tessera recover status}: what is being rebuilt, bytes left, rate, ETA. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Show, per data server with stale shards, how many files and bytes are left to rebuild, the "
          + "rebuild rate and the time left; per draining server (decommissioned, or down past "
          + "tessera.meta.replace-after), the files and bytes left to move to other servers.",
      "Rebuilds run on the meta leader at up to tessera.meta.rebuild-rate (while clients are busy: "
          + "tessera.meta.rebuild-rate-under-load, with stripe locks writers wait on held at most "
          + "tessera.meta.rebuild-lock-share-under-load of the time); counts of files done restart when the leader "
          + "changes."
    })
public final class RecoverStatusCommand extends ConnectedCommand {
  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    ClusterStatus s = fs.admin().status();
    if (json) {
      out()
          .println(
              new ObjectMapper()
                  .enable(SerializationFeature.INDENT_OUTPUT)
                  .writeValueAsString(s.recovery()));
      return 0;
    }
    printRebuilds(out(), s.recovery());
    out().println(redundancy(s));
    return 0;
  }

  /**
   * One line on how redundant the cluster's files are: what is left to rebuild, servers not up,
   * files without parity (never counted as redundant), else every shard fully redundant.
   */
  public static String redundancy(ClusterStatus s) {
    long left = s.recovery().rebuilds().stream().mapToLong(ClusterStatus.Rebuild::filesLeft).sum();
    List<String> notUp =
        s.dataServers().stream()
            .filter(d -> !d.up() && !d.state().equals("retired"))
            .map(ClusterStatus.DataServer::id)
            .toList();
    long bare = s.recovery().filesWithoutParity();
    String withoutParity =
        bare == 0
            ? ""
            : bare
                + " file(s) have no parity (layout K+0): not redundant by layout, "
                + "one lost server loses their bytes.";
    if (left > 0 || !notUp.isEmpty()) {
      return (left > 0 ? left + " file(s) left to rebuild. " : "")
          + (notUp.isEmpty()
              ? ""
              : notUp.size()
                  + " data server(s) not up ("
                  + String.join(", ", notUp)
                  + "): their files are read around them until they are back or replaced. ")
          + withoutParity;
    }
    return bare == 0
        ? "Every shard is fully redundant."
        : withoutParity + " Every shard of the files with parity is fully redundant.";
  }

  /** A rate as every Tessera command prints one: MB/s, 10^6 bytes a second. */
  public static String mbPerS(double bytesPerSecond) {
    return String.format(Locale.ROOT, "%.1f MB/s", bytesPerSecond / 1e6);
  }

  /** The rebuild table shared with {@code cluster status}. */
  public static void printRebuilds(PrintWriter out, ClusterStatus.Recovery recovery) {
    List<ClusterStatus.Rebuild> running = new ArrayList<>();
    List<String> finished = new ArrayList<>();
    for (ClusterStatus.Rebuild r : recovery.rebuilds()) {
      if (r.filesLeft() > 0 || r.bytesLeft() > 0) {
        running.add(r);
      } else {
        finished.add(
            r.server() + " (" + r.filesDone() + " files, " + DataSize.format(r.bytesDone()) + ")");
      }
    }
    // the leader keeps a finished rebuild's row for a while, for its counts
    String lately = finished.isEmpty() ? "" : "; finished lately: " + String.join(", ", finished);
    if (running.isEmpty()) {
      out.println("Rebuilds: none" + lately);
      return;
    }
    out.printf(
        "Rebuilds (limit %s):%n",
        recovery.rateLimitBytesPerSecond() == 0
            ? "none"
            : mbPerS(recovery.rateLimitBytesPerSecond()));
    out.printf(
        "  %-8s %-8s %10s %12s %10s %12s %12s %8s %s%n",
        "SERVER",
        "WORK",
        "FILES LEFT",
        "BYTES LEFT",
        "FILES DONE",
        "BYTES DONE",
        "RATE",
        "ETA",
        "FAILURES");
    for (ClusterStatus.Rebuild r : running) {
      long eta = r.etaSeconds();
      out.printf(
          "  %-8s %-8s %10d %12s %10d %12s %12s %8s %d%s%n",
          r.server(),
          r.draining() ? "move off" : "rebuild",
          r.filesLeft(),
          DataSize.format(r.bytesLeft()),
          r.filesDone(),
          DataSize.format(r.bytesDone()),
          mbPerS(r.bytesPerSecond()),
          eta < 0 ? "?" : eta + "s",
          r.failures(),
          r.lastError().isEmpty() ? "" : " (last: " + r.lastError() + ")");
    }
    if (!finished.isEmpty()) {
      out.println("  finished lately: " + String.join(", ", finished));
    }
  }
}
