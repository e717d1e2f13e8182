package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.cli.options.LayoutOptions;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFileSystem;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs mkdir}. */
@Command(
    name = "mkdir",
    mixinStandardHelpOptions = true,
    description = {
      "Create directories. With --ec/--stripe-unit, files created below default to that layout (down "
          + "to a directory with a default of its own); fs stat DIR shows it.",
      "With -p, an existing directory takes the layout as its new default: 'fs mkdir -p --ec 6+3 /' sets the "
          + "cluster's. A layout wider than the cluster's data servers is refused (--force keeps it)."
    })
public final class MkdirCommand extends ConnectedCommand {
  @Option(names = "-p", description = "create missing parents; an existing directory is fine")
  boolean parents;

  @Option(
      names = "--force",
      description =
          "keep a layout wider than the data servers the cluster has now (for "
              + "servers yet to come)")
  boolean force;

  @Mixin LayoutOptions layout;

  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      arity = "1..*",
      description = "directories to create")
  List<String> paths;

  @Override
  protected void checkArguments() {
    layout.toOptions(); // --ec and --stripe-unit, before anything is created
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    CreateOptions o = layout.toOptions();
    if (o != null) {
      o.widerThanCluster(force);
    }
    for (String p : paths) {
      fs.mkdir(p, parents, o);
    }
    return 0;
  }
}
