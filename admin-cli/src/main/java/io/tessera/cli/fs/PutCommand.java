package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.cli.options.LayoutOptions;
import io.tessera.client.ClientConfigKeys;
import io.tessera.client.TesseraFileSystem;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs put}. */
@Command(
    name = "put",
    mixinStandardHelpOptions = true,
    description = {
      "Copy a local file (or with -r a directory tree) into the cluster, with a progress bar, then"
          + " the rate.",
      "Missing parent directories are created. The layout comes from --ec/--stripe-unit, else from the target directory, else the cluster default.",
      "LOCAL - reads standard input (tar c dir | tessera fs put - /backups/dir.tar); a pipe works too.",
      "With -r, LOCAL's files and directories are copied below PATH (below PATH/LOCAL's name when PATH"
          + " is an existing directory, as cp -r does), several files at once; symbolic links and"
          + " special files are skipped and counted.",
      "The file is written under a hidden name (.NAME.tessera-part-PID) and renamed into place when complete: "
          + "an interrupted put leaves nothing behind, and a file it replaces (--overwrite) stays whole until then. "
          + "A put killed outright leaves its copy, which the cluster removes once tessera.client.partial-lease "
          + "(60 s) passes without the put renewing it.",
      "The copy is made durable (fsync on every data server of the file) before it takes the name: after a"
          + " power loss, a name a put gave points at the whole file. --no-sync skips that wait."
    })
public final class PutCommand extends ConnectedCommand {
  @Mixin LayoutOptions layout;

  @Option(
      names = {"-f", "--overwrite"},
      description = "replace an existing file")
  boolean overwrite;

  @Mixin TreeOptions treeOptions;

  @Option(
      names = "--no-sync",
      description =
          "rename into place without waiting for the copy to be on disk: faster, but after a"
              + " power loss the name may point at bytes that never reached one")
  boolean noSync;

  /** Before --no-sync: putting with fsync was optional; it is what every put does now. */
  @Option(names = "--sync", hidden = true)
  boolean sync;

  @Option(
      names = {"-q", "--quiet"},
      description = "no progress bar or rate")
  boolean quiet;

  @Parameters(
      index = "0",
      paramLabel = "LOCAL",
      description = "local file to copy, or - for standard input, or with -r a directory")
  String local;

  @Parameters(
      converter = ClusterPaths.class,
      index = "1",
      paramLabel = "PATH",
      description =
          "where to put it in the cluster; an existing directory receives it under LOCAL's name")
  String remote;

  /** The put decides when to sync (before its rename); closing the copy adds no second one. */
  @Override
  protected Map<String, String> settings() {
    return Map.of(ClientConfigKeys.Streams.SYNC_ON_CLOSE.key(), "false");
  }

  @Override
  protected void checkArguments() {
    layout.toOptions(); // --ec and --stripe-unit, before anything is created
    treeOptions.check();
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    Path source = local.equals("-") ? null : Path.of(local);
    if (source != null && !Files.exists(source, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(local, null, "no such local file");
    }
    if (source != null && Files.isDirectory(source)) {
      if (!treeOptions.recursive) {
        throw new IllegalArgumentException(
            local + " is a directory: -r copies it and everything below it");
      }
      return putTree(fs, source);
    }
    // standard input and pipes have no size known in advance: the progress bar counts up
    long size =
        source != null && Files.isRegularFile(source) ? Files.size(source) : Transfer.UNKNOWN_SIZE;
    String target = targetPath(fs, source);
    String parent = target.substring(0, Math.max(1, target.lastIndexOf('/')));
    try (Upload upload = new Upload(fs, layout.toOptions(), overwrite, !noSync)) {
      fs.mkdirs(parent);
      try (InputStream in =
              source == null
                  ? new FilterInputStream(System.in) {
                    @Override
                    public void close() {} // standard input stays open
                  }
                  : Files.newInputStream(source);
          Transfer t = Transfer.start("put " + Names.escaped(target), size, quiet, err())) {
        upload.put(in, target, t);
        t.finish("");
      }
    }
    return 0;
  }

  /** {@code put -r}: the directories first, in walk order, then the files, several at once. */
  private int putTree(TesseraFileSystem fs, Path source) throws IOException, InterruptedException {
    String root = targetPath(fs, source);
    LocalTree tree = LocalTree.walk(source);
    fs.mkdirs(root);
    for (Path dir : tree.directories()) {
      fs.mkdirs(root + "/" + LocalTree.relative(source, dir));
    }
    AtomicInteger copied = new AtomicInteger();
    try (Upload upload = new Upload(fs, layout.toOptions(), overwrite, !noSync);
        Transfer t = Transfer.start("put " + Names.escaped(root), tree.bytes(), quiet, err())) {
      List<ParallelCopies.Copy> copies = new ArrayList<>();
      for (Path file : tree.files()) {
        String target = root + "/" + LocalTree.relative(source, file);
        copies.add(
            () -> {
              try (InputStream in = Files.newInputStream(file)) {
                upload.put(in, target, t);
              }
              copied.incrementAndGet();
            });
      }
      try {
        ParallelCopies.runAll(copies, treeOptions.parallel);
      } catch (IOException | RuntimeException e) {
        t.close();
        err().printf("put -r stopped: %d of %d files copied%n", copied.get(), copies.size());
        throw e;
      }
      t.finish(tree.describe());
    }
    if (tree.skippedNote() != null) {
      err().println(tree.skippedNote());
    }
    return 0;
  }

  /** PATH, or for an existing directory LOCAL's name inside it (as cp does). */
  private String targetPath(TesseraFileSystem fs, Path source) throws IOException {
    String target = remote;
    if (target.length() > 1 && target.endsWith("/")) {
      target = target.substring(0, target.length() - 1);
    }
    if (!fs.exists(target) || !fs.stat(target).directory()) {
      return target;
    }
    if (source == null) {
      throw new IllegalArgumentException(
          target
              + " is a directory; name the file to write in it ("
              + (target.equals("/") ? "" : target)
              + "/NAME)");
    }
    return (target.equals("/") ? "" : target)
        + "/"
        + source.toAbsolutePath().normalize().getFileName();
  }
}
