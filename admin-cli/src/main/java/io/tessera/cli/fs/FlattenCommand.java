package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFileSystem;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera fs flatten}. */
@Command(
    name = "flatten",
    mixinStandardHelpOptions = true,
    description = {
      "Merge a log file's writers' indexes into one flattened index, so opening it reads one index.",
      "The last writer's close does this anyway; run it for a file whose writers died or that was"
          + " synced and kept open. Striped files are left as they are."
    })
public final class FlattenCommand extends ConnectedCommand {
  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      arity = "1..*",
      description = "log files in the cluster")
  List<String> paths;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    for (String p : paths) {
      FileStatus s = fs.flatten(p);
      if (s.log() == null) {
        out().printf("%s: striped, nothing to flatten%n", Names.escaped(s.path()));
      } else {
        out()
            .printf(
                "%s: %d index entries from %d writers in one flattened index%n",
                Names.escaped(s.path()), s.log().indexEntries(), s.log().writers());
      }
    }
    return 0;
  }
}
