package io.tessera.cli.fs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFileSystem;
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
          "long listing: mode, size, time, layout (a directory's: its default for new files)")
  boolean longFormat;

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

  @Parameters(paramLabel = "PATH", defaultValue = "/", description = "paths to list (default /)")
  List<String> paths;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    boolean headers = !json && paths.size() > 1;
    boolean first = true;
    for (String p : paths) {
      FileStatus s = fs.stat(ClusterPaths.absolute(p));
      boolean contents = s.directory() && !directoryItself;
      List<FileStatus> entries = contents ? fs.list(s.path()) : List.of(s);
      if (headers && contents) {
        out().printf("%s%s:%n", first ? "" : System.lineSeparator(), Names.escaped(s.path()));
      }
      first = false;
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
      }
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
}
