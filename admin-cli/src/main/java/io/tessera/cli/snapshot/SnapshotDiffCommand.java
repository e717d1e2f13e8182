package io.tessera.cli.snapshot;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotChange;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera snapshot diff FROM TO}. */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Show what changed from snapshot FROM to snapshot TO, or without TO to the live file system"
          + " now.",
      "  + created   - deleted   M modified (a file replaced at its path too)   R renamed (old -> new)",
      "Both trees are walked a directory page at a time; only the differences are held in memory."
    })
public final class SnapshotDiffCommand extends ConnectedCommand {
  @Parameters(index = "0", paramLabel = "FROM")
  String from;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "TO",
      description = "a later (or earlier) snapshot; default: the live file system")
  String to;

  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Override
  protected void checkArguments() {
    SnapshotArguments.checkNames(from, to);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    long start = System.nanoTime();
    List<SnapshotChange> changes =
        to == null
            ? fs.admin().snapshots().diffToLive(from)
            : fs.admin().snapshots().diff(from, to);
    if (json) {
      out()
          .println(
              new ObjectMapper()
                  .enable(SerializationFeature.INDENT_OUTPUT)
                  .writeValueAsString(changes));
      return 0;
    }
    changes.forEach(c -> out().println(c));
    out()
        .printf(
            "%d change(s) from %s to %s (%.1f s)%n",
            changes.size(),
            from,
            to == null ? "the live file system" : to,
            (System.nanoTime() - start) / 1e9);
    return 0;
  }
}
