package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;

import io.tessera.cli.ClusterPaths;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs get}. */
@Command(name = "get", mixinStandardHelpOptions = true,
    description = "Copy a file out of the cluster, with a progress bar, then the rate.")
public final class GetCommand extends ConnectedCommand {
  @Option(names = {"-q", "--quiet"}, description = "no progress bar or rate")
  boolean quiet;

  @Parameters(index = "0", paramLabel = "PATH", description = "file in the cluster")
  String remote;

  @Parameters(index = "1", paramLabel = "LOCAL", description = "local file to write (replaced if it exists; a device such as /dev/null is written into)")
  Path local;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    try (TesseraFile f = fs.openFile(ClusterPaths.absolute(remote))) {
      Path target = Files.isDirectory(local) ? local.resolve(Path.of(f.path()).getFileName().toString()) : local;
      if (Files.exists(target) && !Files.isRegularFile(target)) {
        // a device or pipe (/dev/null, a FIFO): write into it, never replace it
        try (InputStream in = f.newInputStream(0); OutputStream out = Files.newOutputStream(target)) {
          Transfer.copy("get " + f.path(), in, out, f.size(), quiet, err());
        }
        return 0;
      }
      Path tmp = target.resolveSibling(target.getFileName() + ".tessera-part");
      try (InputStream in = f.newInputStream(0); OutputStream out = Files.newOutputStream(tmp)) {
        Transfer.copy("get " + f.path(), in, out, f.size(), quiet, err());
      } catch (Exception e) {
        Files.deleteIfExists(tmp);
        throw e;
      }
      Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
    }
    return 0;
  }
}
