package io.tessera.cli.fs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFileSystem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs ls}. */
@Command(
    name = "ls",
    mixinStandardHelpOptions = true,
    description = {
      "List directories (or show files), as ls does: names starting with '.' (a put's partial copy "
          + "among them) only with -a; several paths each under a 'PATH:' header.",
      "Control characters in names are shown escaped (\\n, \\t, \\ooo); --json keeps names exact."
    })
public final class LsCommand extends ConnectedCommand {
  @Option(
      names = "-l",
      description =
          "long listing: mode, owner and group (numeric ids, as the cluster keeps them), size,"
              + " time, layout (a directory's: its default for new files)")
  boolean longFormat;

  @Option(
      names = {"-R", "--recursive"},
      description = "list the directories below too, each under a 'PATH:' header")
  boolean recursive;

  @Option(
      names = {"-a", "--all"},
      description = "also list entries whose names start with '.'")
  boolean all;

  @Option(
      names = {"-d", "--directory"},
      description = "list directories themselves, not their contents")
  boolean directoryItself;

  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      defaultValue = "/",
      description = "paths to list (default /)")
  List<String> paths;

  private boolean first = true;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    boolean headers = !json && (paths.size() > 1 || recursive);
    for (String p : paths) {
      FileStatus s = fs.stat(p);
      list(fs, s, headers, rows);
    }
    if (json) {
      out()
          .println(
              new ObjectMapper()
                  .enable(SerializationFeature.INDENT_OUTPUT)
                  .writeValueAsString(rows));
    }
    return 0;
  }

  /** One path: a file, a directory itself, or its entries (and, with -R, those below). */
  private void list(
      TesseraFileSystem fs, FileStatus s, boolean headers, List<Map<String, Object>> rows)
      throws IOException {
    boolean contents = s.directory() && !directoryItself;
    List<FileStatus> entries = contents ? entries(fs, s.path()) : List.of(s);
    if (headers && contents) {
      out().printf("%s%s:%n", first ? "" : System.lineSeparator(), Names.escaped(s.path()));
    }
    first = false;
    List<FileStatus> below = new ArrayList<>();
    for (FileStatus e : entries) {
      if (contents && !all && e.name().startsWith(".")) {
        continue;
      }
      if (json) {
        rows.add(StatCommand.toMap(e));
      } else if (longFormat) {
        out().println(StatCommand.longLine(e, contents));
      } else {
        String name = Names.escaped(contents ? e.name() : e.path());
        out().println(e.directory() ? name + "/" : name);
      }
      // snapshots hold the whole tree again: -R goes into them only when listing them
      if (recursive && contents && e.directory() && !e.path().equals(SNAPSHOTS)) {
        below.add(e);
      }
    }
    for (FileStatus d : below) {
      list(fs, d, headers, rows);
    }
  }

  /** A directory's entries; the root's include /.snapshots, which it shows only with -a. */
  private List<FileStatus> entries(TesseraFileSystem fs, String dir) throws IOException {
    List<FileStatus> entries = fs.list(dir);
    if (dir.equals("/")
        && all
        && entries.stream().noneMatch(e -> e.path().equals(SNAPSHOTS))
        && fs.exists(SNAPSHOTS)) {
      List<FileStatus> withSnapshots = new ArrayList<>();
      withSnapshots.add(fs.stat(SNAPSHOTS));
      withSnapshots.addAll(entries);
      return withSnapshots;
    }
    return entries;
  }

  private static final String SNAPSHOTS = "/.snapshots";
}
