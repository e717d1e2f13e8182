package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.cli.options.LayoutOptions;
import io.tessera.client.ClientConfigKeys;
import io.tessera.client.CreateOptions;
import io.tessera.client.TesseraFile;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.status.TesseraException.AlreadyExistsException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs put}. */
@Command(
    name = "put",
    mixinStandardHelpOptions = true,
    description = {
      "Copy a local file into the cluster, with a progress bar, then the rate.",
      "Missing parent directories are created. The layout comes from --ec/--stripe-unit, else from the target directory, else the cluster default.",
      "LOCAL - reads standard input (tar c dir | tessera fs put - /backups/dir.tar); a pipe works too.",
      "The file is written under a hidden name (.NAME.tessera-part-PID) and renamed into place when complete: "
          + "an interrupted put leaves nothing behind, and a file it replaces (--overwrite) stays whole until then. "
          + "A put killed outright leaves its copy, which the cluster removes once tessera.client.partial-lease "
          + "(60 s) passes without the put renewing it.",
      "The copy is made durable (fsync on every data server of the file) before it takes the name: after a"
          + " power loss, a name a put gave points at the whole file. --no-sync skips that wait."
    })
public final class PutCommand extends ConnectedCommand {
  /** The longest name the namespace takes, in UTF-8 bytes. */
  static final int MAX_NAME_BYTES = 255;

  @Mixin LayoutOptions layout;

  @Option(
      names = {"-f", "--overwrite"},
      description = "replace an existing file")
  boolean overwrite;

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
      description = "local file to copy, or - for standard input")
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
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    Path source = local.equals("-") ? null : Path.of(local);
    if (source != null && Files.isDirectory(source)) {
      throw new IllegalArgumentException(
          local
              + " is a directory; put copies one file (tar c "
              + local
              + " | tessera fs put - PATH, or put its files one by one)");
    }
    if (source != null && !Files.exists(source)) {
      throw new NoSuchFileException(local, null, "no such local file");
    }
    // standard input and pipes have no size known in advance: the progress bar counts up
    long size =
        source != null && Files.isRegularFile(source) ? Files.size(source) : Transfer.UNKNOWN_SIZE;
    String target = targetPath(fs, source);
    String parent = target.substring(0, Math.max(1, target.lastIndexOf('/')));
    fs.mkdirs(parent);
    if (!overwrite && fs.exists(target)) {
      throw new AlreadyExistsException(
          Names.escaped(target) + " already exists (--overwrite replaces it)");
    }
    // written under a hidden name and renamed when complete: an interrupted put leaves no
    // half-written file behind, and the file it would replace stays whole until then
    String partial =
        parent.replaceAll("/$", "")
            + "/"
            + partialName(
                target.substring(target.lastIndexOf('/') + 1), ProcessHandle.current().pid());
    Duration lease = fs.async().partialLease();
    CreateOptions o = layout.toOptions();
    o = (o == null ? CreateOptions.defaults() : o).overwrite(true).partial(lease);
    Thread onInterrupt = new Thread(() -> removeQuietly(fs, partial), "put-interrupted");
    Runtime.getRuntime().addShutdownHook(onInterrupt);
    boolean renamed = false;
    ScheduledExecutorService renewer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "put-lease");
              t.setDaemon(true);
              return t;
            });
    try {
      try (TesseraFile f = fs.createFile(partial, o);
          InputStream in =
              source == null
                  ? new FilterInputStream(System.in) {
                    @Override
                    public void close() {} // standard input stays open
                  }
                  : Files.newInputStream(source)) {
        // a put killed outright stops renewing: the cluster removes its copy once the lease runs
        // out
        long every = Math.max(1, lease.toMillis() / 3);
        renewer.scheduleWithFixedDelay(
            () -> renewQuietly(fs, f, lease), every, every, TimeUnit.MILLISECONDS);
        OutputStream out = f.newOutputStream(0);
        Transfer.copy("put " + Names.escaped(target), in, out, size, quiet, err());
        if (!noSync) {
          f.sync(); // before the rename publishes the name
        }
      }
      fs.rename(partial, target, overwrite);
      renamed = true;
    } finally {
      renewer.shutdownNow();
      if (!renamed) {
        removeQuietly(fs, partial);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(onInterrupt);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or has run
      }
    }
    return 0;
  }

  /** PATH, or for an existing directory the local file's name inside it (as cp does). */
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
    return (target.equals("/") ? "" : target) + "/" + source.getFileName();
  }

  /**
   * The hidden name a put writes under: {@code .NAME.tessera-part-PID}, NAME cut short (whole
   * characters) where the whole would pass the 255-byte limit on names, so any name that fits can
   * be put.
   */
  static String partialName(String name, long pid) {
    String suffix = ".tessera-part-" + pid;
    int room = MAX_NAME_BYTES - 1 - suffix.length();
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= room) {
      return "." + name + suffix;
    }
    StringBuilder cut = new StringBuilder();
    int used = 0;
    for (int i = 0; i < name.length(); ) {
      int cp = name.codePointAt(i);
      int bytes = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (used + bytes > room) {
        break;
      }
      cut.appendCodePoint(cp);
      used += bytes;
      i += Character.charCount(cp);
    }
    return "." + cut + suffix;
  }

  private static void renewQuietly(TesseraFileSystem fs, TesseraFile f, Duration lease) {
    try {
      fs.renewPartial(f, lease);
    } catch (IOException | RuntimeException e) {
      // the next renewal tries again; the copy stays while the lease lasts
    }
  }

  private static void removeQuietly(TesseraFileSystem fs, String path) {
    try {
      fs.delete(path, false);
    } catch (IOException | RuntimeException e) {
      // already gone (renamed, or removed by the other path), or the cluster is unreachable
    }
  }
}
