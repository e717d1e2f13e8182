package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;

import io.tessera.cli.ClusterPaths;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs put}. */
@Command(name = "put", mixinStandardHelpOptions = true,
    description = {"Copy a local file into the cluster, with a progress bar, then the rate.",
        "Missing parent directories are created. The layout comes from --ec/--stripe-unit, else from the target directory, else the cluster default."})
public final class PutCommand extends ConnectedCommand {
  @Mixin
  LayoutOptions layout;

  @Option(names = {"-f", "--overwrite"}, description = "replace an existing file")
  boolean overwrite;

  @Option(names = "--sync", description = "fsync on every data server before finishing (survives power loss)")
  boolean sync;

  @Option(names = {"-q", "--quiet"}, description = "no progress bar or rate")
  boolean quiet;

  @Parameters(index = "0", paramLabel = "LOCAL", description = "local file to copy")
  Path local;

  @Parameters(index = "1", paramLabel = "PATH", description = "where to put it in the cluster")
  String remote;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    if (!Files.isRegularFile(local)) {
      throw new NoSuchFileException(local.toString(), null, "no such local file");
    }
    CreateOptions o = layout.toOptions();
    o = (o == null ? CreateOptions.defaults() : o).overwrite(overwrite);
    String target = ClusterPaths.absolute(remote);
    String parent = target.substring(0, Math.max(1, target.lastIndexOf('/')));
    fs.mkdirs(parent);
    try (TesseraFile f = fs.createFile(target, o); InputStream in = Files.newInputStream(local)) {
      OutputStream out = f.newOutputStream(0);
      Transfer.copy("put " + f.path(), in, out, Files.size(local), quiet, err());
      if (sync) {
        f.sync();
      }
    }
    return 0;
  }
}
