package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.InputStream;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera fs cat}. */
@Command(
    name = "cat",
    mixinStandardHelpOptions = true,
    description = "Write files to standard output.")
public final class CatCommand extends ConnectedCommand {
  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      arity = "1..*",
      description = "files in the cluster")
  List<String> paths;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    for (String p : paths) {
      try (TesseraFile f = fs.openFile(p);
          InputStream in = f.newInputStream(0)) {
        in.transferTo(System.out);
      }
    }
    System.out.flush();
    return 0;
  }
}
