package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.TesseraFileSystem;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs rm}. */
@Command(
    name = "rm",
    mixinStandardHelpOptions = true,
    description =
        "Remove files or empty directories; -r removes whole trees. Space is freed in the background.")
public final class RmCommand extends ConnectedCommand {
  @Option(
      names = {"-r", "-R", "--recursive"},
      description = "remove directories and everything in them")
  boolean recursive;

  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      arity = "1..*",
      description = "what to remove")
  List<String> paths;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    for (String p : paths) {
      fs.delete(p, recursive);
    }
    return 0;
  }
}
