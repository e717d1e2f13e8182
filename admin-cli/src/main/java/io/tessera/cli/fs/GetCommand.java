package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.status.TesseraException.AlreadyExistsException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs get}. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = {
      "Copy a file out of the cluster, with a progress bar, then the rate.",
      "The copy is written as LOCAL.tessera-part and renamed into place when complete: an interrupted get "
          + "(Ctrl-C, SIGTERM, a lost cluster) leaves nothing behind, and a file it replaces (--overwrite) stays "
          + "whole until then."
    })
public final class GetCommand extends ConnectedCommand {
  @Option(
      names = {"-q", "--quiet"},
      description = "no progress bar or rate")
  boolean quiet;

  @Option(
      names = {"-f", "--overwrite"},
      description = "replace an existing local file")
  boolean overwrite;

  @Parameters(
      converter = ClusterPaths.class,
      index = "0",
      paramLabel = "PATH",
      description = "file in the cluster")
  String remote;

  @Parameters(
      index = "1",
      paramLabel = "LOCAL",
      description =
          "local file to write, or an existing directory to "
              + "write it into under its name (a device or a pipe is written into, never replaced)")
  Path local;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    try (TesseraFile f = fs.openFile(remote)) {
      Path target =
          Files.isDirectory(local)
              ? local.resolve(Path.of(f.path()).getFileName().toString())
              : local;
      if (Files.exists(target) && !Files.isRegularFile(target)) {
        // a device or pipe (/dev/null, a FIFO): write into it, never replace it
        try (InputStream in = f.newInputStream(0);
            OutputStream out = Files.newOutputStream(target)) {
          Transfer.copy("get " + Names.escaped(f.path()), in, out, f.size(), quiet, err());
        }
        return 0;
      }
      if (Files.exists(target) && !overwrite) {
        throw new AlreadyExistsException(target + " already exists (--overwrite replaces it)");
      }
      Path parent = target.toAbsolutePath().getParent();
      if (parent != null && !Files.isDirectory(parent)) {
        throw new NoSuchFileException(
            target.toString(), null, "no such local directory " + parent + " (create it first)");
      }
      Path tmp = target.resolveSibling(target.getFileName() + ".tessera-part");
      // Ctrl-C and SIGTERM run shutdown hooks, not the finally below
      Thread onInterrupt = new Thread(() -> deleteQuietly(tmp), "get-interrupted");
      Runtime.getRuntime().addShutdownHook(onInterrupt);
      boolean moved = false;
      try {
        try (InputStream in = f.newInputStream(0);
            OutputStream out = Files.newOutputStream(tmp)) {
          Transfer.copy("get " + Names.escaped(f.path()), in, out, f.size(), quiet, err());
        }
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        moved = true;
      } finally {
        if (!moved) {
          deleteQuietly(tmp);
        }
        try {
          Runtime.getRuntime().removeShutdownHook(onInterrupt);
        } catch (IllegalStateException shuttingDown) {
          // the hook is running or has run
        }
      }
    }
    return 0;
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // nothing more to do on the way out
    }
  }
}
