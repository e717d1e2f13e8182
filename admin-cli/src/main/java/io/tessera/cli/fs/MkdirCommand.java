package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;

import io.tessera.cli.ClusterPaths;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs mkdir}. */
@Command(name = "mkdir", mixinStandardHelpOptions = true,
    description = "Create directories. With --ec/--stripe-unit, files created inside default to that layout.")
public final class MkdirCommand extends ConnectedCommand {
  @Option(names = "-p", description = "create missing parents; an existing directory is fine")
  boolean parents;

  @Mixin
  LayoutOptions layout;

  @Parameters(paramLabel = "PATH", arity = "1..*", description = "directories to create")
  List<String> paths;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    CreateOptions o = layout.toOptions();
    for (String p : paths) {
      fs.mkdir(ClusterPaths.absolute(p), parents, o);
    }
    return 0;
  }
}
