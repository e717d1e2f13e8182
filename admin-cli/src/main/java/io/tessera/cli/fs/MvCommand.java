package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.TesseraFileSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs mv}. */
@Command(
    name = "mv",
    mixinStandardHelpOptions = true,
    description =
        "Rename atomically. An existing target file is replaced; an existing target directory must be empty.")
public final class MvCommand extends ConnectedCommand {
  @Option(
      names = {"-n", "--no-clobber"},
      description = "refuse (exit 1) instead of replacing an existing target")
  boolean noClobber;

  @Parameters(converter = ClusterPaths.class, index = "0", paramLabel = "SOURCE")
  String source;

  @Parameters(converter = ClusterPaths.class, index = "1", paramLabel = "TARGET")
  String target;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    String dst = target;
    // like mv(1): into an existing directory, keeping the name
    if (fs.exists(dst) && fs.stat(dst).directory() && !fs.stat(source).directory()) {
      dst = (dst.endsWith("/") ? dst : dst + "/") + fs.stat(source).name();
    }
    fs.rename(source, dst, !noClobber);
    return 0;
  }
}
