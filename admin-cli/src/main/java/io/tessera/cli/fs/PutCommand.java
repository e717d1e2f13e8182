package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;

import io.tessera.cli.ClusterPaths;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.FilterInputStream;
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
        "Missing parent directories are created. The layout comes from --ec/--stripe-unit, else from the target directory, else the cluster default.",
        "LOCAL - reads standard input (tar c dir | tessera fs put - /backups/dir.tar); a pipe works too."})
public final class PutCommand extends ConnectedCommand {
  @Mixin
  LayoutOptions layout;

  @Option(names = {"-f", "--overwrite"}, description = "replace an existing file")
  boolean overwrite;

  @Option(names = "--sync", description = "fsync on every data server before finishing (survives power loss)")
  boolean sync;

  @Option(names = {"-q", "--quiet"}, description = "no progress bar or rate")
  boolean quiet;

  @Parameters(index = "0", paramLabel = "LOCAL", description = "local file to copy, or - for standard input")
  String local;

  @Parameters(index = "1", paramLabel = "PATH", description = "where to put it in the cluster")
  String remote;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    Path source = local.equals("-") ? null : Path.of(local);
    if (source != null && Files.isDirectory(source)) {
      throw new IllegalArgumentException(local + " is a directory; put copies one file (tar c " + local
          + " | tessera fs put - PATH, or put its files one by one)");
    }
    if (source != null && !Files.exists(source)) {
      throw new NoSuchFileException(local, null, "no such local file");
    }
    // standard input and pipes have no size known in advance: the progress bar counts up
    long size = source != null && Files.isRegularFile(source) ? Files.size(source) : Transfer.UNKNOWN_SIZE;
    CreateOptions o = layout.toOptions();
    o = (o == null ? CreateOptions.defaults() : o).overwrite(overwrite);
    String target = ClusterPaths.absolute(remote);
    String parent = target.substring(0, Math.max(1, target.lastIndexOf('/')));
    fs.mkdirs(parent);
    try (TesseraFile f = fs.createFile(target, o);
        InputStream in = source == null ? new FilterInputStream(System.in) {
          @Override
          public void close() {}   // standard input stays open
        } : Files.newInputStream(source)) {
      OutputStream out = f.newOutputStream(0);
      Transfer.copy("put " + f.path(), in, out, size, quiet, err());
      if (sync) {
        f.sync();
      }
    }
    return 0;
  }
}
