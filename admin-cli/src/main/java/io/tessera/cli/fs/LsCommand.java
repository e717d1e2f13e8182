package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ClusterPaths;
import io.tessera.client.FileStatus;
import io.tessera.client.TesseraFileSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs ls}. */
@Command(name = "ls", mixinStandardHelpOptions = true, description = "List directories (or show files).")
public final class LsCommand extends ConnectedCommand {
  @Option(names = "-l", description = "long listing: type, mode, size, time, layout")
  boolean longFormat;

  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Parameters(paramLabel = "PATH", defaultValue = "/", description = "paths to list (default /)")
  List<String> paths;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (String p : paths) {
      FileStatus s = fs.stat(ClusterPaths.absolute(p));
      List<FileStatus> entries = s.directory() ? fs.list(s.path()) : List.of(s);
      for (FileStatus e : entries) {
        if (json) {
          rows.add(StatCommand.toMap(e));
        } else if (longFormat) {
          out().println(StatCommand.longLine(e));
        } else {
          out().println(e.directory() ? e.name() + "/" : e.name());
        }
      }
    }
    if (json) {
      out().println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(rows));
    }
    return 0;
  }
}
