package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs get}. */
@Command(
    name = "get",
    mixinStandardHelpOptions = true,
    description = {
      "Copy a file (or with -r a directory tree) out of the cluster, with a progress bar, then the"
          + " rate.",
      "The copy is written as LOCAL.tessera-part and renamed into place when complete: an interrupted get "
          + "(Ctrl-C, SIGTERM, a lost cluster) leaves nothing behind, and a file it replaces (--overwrite) stays "
          + "whole until then.",
      "With -r, PATH's files and directories are copied below LOCAL (below LOCAL/PATH's name when LOCAL"
          + " is an existing directory, as cp -r does), several files at once. Copies in flight of"
          + " puts (.NAME.tessera-part-PID) are left out."
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

  @Mixin TreeOptions treeOptions;

  @Parameters(
      converter = ClusterPaths.class,
      index = "0",
      paramLabel = "PATH",
      description = "file in the cluster, or with -r a directory")
  String remote;

  @Parameters(
      index = "1",
      paramLabel = "LOCAL",
      description =
          "local file to write, or an existing directory to "
              + "write it into under its name (a device or a pipe is written into, never replaced)")
  Path local;

  @Override
  protected void checkArguments() {
    treeOptions.check();
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    TesseraFile opened;
    try {
      opened = fs.openFile(remote); // a file's get asks the meta group once
    } catch (TesseraException e) {
      if (e.status() != StatusProto.IS_DIRECTORY) {
        throw e;
      }
      if (!treeOptions.recursive) {
        throw new IllegalArgumentException(
            remote + " is a directory: -r copies it and everything below it");
      }
      return getTree(fs, fs.stat(remote));
    }
    try (TesseraFile f = opened) {
      Path target =
          Files.isDirectory(local)
              ? local.resolve(Path.of(f.path()).getFileName().toString())
              : local;
      String task = "get " + Names.escaped(f.path());
      if (Files.exists(target) && !Files.isRegularFile(target)) {
        // a device or pipe (/dev/null, a FIFO): write into it, never replace it
        try (InputStream in = f.newInputStream(0);
            OutputStream out = Files.newOutputStream(target)) {
          Transfer.copy(task, in, out, f.size(), quiet, err());
        }
        return 0;
      }
      try (Download download = new Download(overwrite);
          Transfer t = Transfer.start(task, f.size(), quiet, err())) {
        download.get(f, target, t);
        t.finish("");
      }
    }
    return 0;
  }

  /**
   * {@code get -r}: the directories first, as the walk finds them, then the files, several at once.
   */
  private int getTree(TesseraFileSystem fs, FileStatus top)
      throws IOException, InterruptedException {
    Path root =
        Files.isDirectory(local) && !top.path().equals("/") ? local.resolve(top.name()) : local;
    Path parent = root.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new NoSuchFileException(
          root.toString(), null, "no such local directory " + parent + " (create it first)");
    }
    List<FileStatus> files = new ArrayList<>();
    List<Path> dirs = new ArrayList<>();
    long bytes = walk(fs, top, root, dirs, files);
    Files.createDirectories(root);
    for (Path d : dirs) {
      Files.createDirectories(d);
    }
    AtomicInteger copied = new AtomicInteger();
    String base = top.path().equals("/") ? "" : top.path();
    try (Download download = new Download(overwrite);
        Transfer t = Transfer.start("get " + Names.escaped(top.path()), bytes, quiet, err())) {
      List<ParallelCopies.Copy> copies = new ArrayList<>();
      for (FileStatus file : files) {
        Path target = root.resolve(file.path().substring(base.length() + 1));
        copies.add(
            () -> {
              try (TesseraFile f = fs.openFile(file.path())) {
                download.get(f, target, t);
              }
              copied.incrementAndGet();
            });
      }
      try {
        ParallelCopies.runAll(copies, treeOptions.parallel);
      } catch (IOException | RuntimeException e) {
        t.close();
        err().printf("get -r stopped: %d of %d files copied%n", copied.get(), copies.size());
        throw e;
      }
      t.finish(
          String.format(
              Locale.ROOT, ": %d files, %d directories below it", files.size(), dirs.size()));
    }
    return 0;
  }

  /** Collects the tree below {@code dir}; returns its files' bytes. */
  private static long walk(
      TesseraFileSystem fs, FileStatus dir, Path localDir, List<Path> dirs, List<FileStatus> files)
      throws IOException {
    long bytes = 0;
    for (FileStatus e : fs.list(dir.path())) {
      if (e.directory()) {
        Path d = localDir.resolve(e.name());
        dirs.add(d);
        bytes += walk(fs, e, d, dirs, files);
      } else if (!Upload.isPartialName(e.name())) {
        files.add(e);
        bytes += e.size();
      }
    }
    return bytes;
  }
}
