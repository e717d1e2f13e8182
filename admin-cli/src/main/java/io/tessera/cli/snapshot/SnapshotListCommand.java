package io.tessera.cli.snapshot;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.CliJson;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.common.config.DataSize;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tessera snapshot list}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "List snapshots, oldest first: name, epoch, time, and the bytes only that snapshot holds.",
      "Those bytes are what deleting it would free; every data server scans its shard versions to tell."
    })
public final class SnapshotListCommand extends ConnectedCommand {
  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Option(
      names = "--no-usage",
      description = "skip the bytes each snapshot holds (no data server is asked)")
  boolean noUsage;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    List<SnapshotInfo> list =
        noUsage ? fs.admin().snapshots().list() : fs.admin().snapshots().listWithUsage();
    if (json) {
      CliJson.print(out(), list);
      return 0;
    }
    if (list.isEmpty()) {
      out().println("No snapshots (tessera snapshot create NAME takes one).");
      return 0;
    }
    out().printf("%-24s %8s %-24s %12s %s%n", "NAME", "EPOCH", "TAKEN", "ONLY IN IT", "NOTES");
    for (SnapshotInfo s : list) {
      out()
          .printf(
              "%-24s %8d %-24s %12s %s%n",
              s.name(),
              s.epoch(),
              s.created(),
              s.exclusiveBytes() < 0
                  ? (noUsage ? "-" : "unknown")
                  : DataSize.format(s.exclusiveBytes()),
              s.missingServers().isEmpty() ? "" : "taken without " + s.missingServers());
    }
    return 0;
  }
}
