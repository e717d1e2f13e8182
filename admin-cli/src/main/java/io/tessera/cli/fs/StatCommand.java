package io.tessera.cli.fs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.FileStatus;
import io.tessera.client.LogStatus;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.config.DataSize;
import io.tessera.common.layout.StripeLayout;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera fs stat}. */
@Command(
    name = "stat",
    mixinStandardHelpOptions = true,
    description =
        "Show a file's attributes and layout: coding, stripe unit, and which servers hold what.")
public final class StatCommand extends ConnectedCommand {
  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      description = "the file or directory")
  String path;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    FileStatus s = fs.stat(path);
    if (json) {
      out()
          .println(
              new ObjectMapper()
                  .enable(SerializationFeature.INDENT_OUTPUT)
                  .writeValueAsString(toMap(s)));
      return 0;
    }
    out()
        .printf(
            "  Path: %s%n  Type: %s%n  Size: %d%n  Mode: %04o (%s)%n Owner: %d:%d%n  Inode: %d%nModify: %s%nChange: %s%n",
            Names.escaped(s.path()),
            s.directory() ? "directory" : "regular file",
            s.size(),
            s.mode(),
            Permissions.symbolic(s.directory(), s.mode()),
            s.owner().uid(),
            s.owner().gid(),
            s.fileId(),
            s.modified(),
            s.changed());
    if (s.directory()) {
      out()
          .printf(
              "Layout: %s%n",
              s.defaultLayout() == null
                  ? "inherited from the parent directory (new files)"
                  : s.defaultLayout() + " (default for new files)");
    }
    if (s.log() != null) {
      LogStatus log = s.log();
      out()
          .printf(
              "Layout: %s%n  Kind: log (each writer appends to a data log and an index log of its"
                  + " own)%nWriters: %d (%d open)%n Index entries: %d%nFlattened: %s%n",
              log.layout(),
              log.writers(),
              log.openWriters(),
              log.indexEntries(),
              log.flattened()
                  ? "yes (opens read one index)"
                  : "no (opens merge every writer's index; done on the last close, or fs flatten)");
    }
    StripeLayout l = s.layout();
    if (l != null) {
      out().printf("Layout: %s%n  Kind: striped%n", l);
      out().printf("  Stripe 0: ");
      for (int u = 0; u < l.width(); u++) {
        out()
            .printf(
                "%s%s=%s",
                u == 0 ? "" : ", ",
                u < l.dataUnits() ? "d" + u : "p" + (u - l.dataUnits()),
                l.serverOf(0, u));
      }
      out()
          .printf(
              "%n  (unit j of stripe s is on server (j + s) mod %d of: %s)%n",
              l.width(), String.join(", ", l.servers()));
      if (!s.staleServers().isEmpty()) {
        out()
            .printf(
                " Stale: %s (missed writes while down; reads decode around them until recovery)%n",
                String.join(", ", s.staleServers()));
      }
    }
    return 0;
  }

  static Map<String, Object> toMap(FileStatus s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("path", s.path());
    m.put("type", s.directory() ? "directory" : "file");
    m.put("size", s.size());
    m.put("mode", String.format(Locale.ROOT, "%04o", s.mode()));
    m.put("uid", s.owner().uid());
    m.put("gid", s.owner().gid());
    m.put("inode", s.fileId());
    m.put("modified", s.modified().toString());
    m.put("changed", s.changed().toString());
    if (s.layout() != null) {
      StripeLayout l = s.layout();
      m.put(
          "layout",
          Map.of(
              "dataUnits",
              l.dataUnits(),
              "parityUnits",
              l.parityUnits(),
              "stripeUnit",
              l.stripeUnit(),
              "servers",
              l.servers()));
      m.put("staleServers", s.staleServers());
    }
    if (s.log() != null) {
      LogStatus log = s.log();
      m.put("kind", "log");
      m.put(
          "layout",
          Map.of(
              "dataUnits",
              log.layout().dataUnits(),
              "parityUnits",
              log.layout().parityUnits(),
              "stripeUnit",
              log.layout().stripeUnit()));
      m.put(
          "log",
          Map.of(
              "writers",
              log.writers(),
              "openWriters",
              log.openWriters(),
              "indexEntries",
              log.indexEntries(),
              "flattened",
              log.flattened()));
    } else if (s.layout() != null) {
      m.put("kind", "striped");
    }
    if (s.defaultLayout() != null) {
      m.put(
          "defaultLayout",
          Map.of(
              "dataUnits",
              s.defaultLayout().dataUnits(),
              "parityUnits",
              s.defaultLayout().parityUnits(),
              "stripeUnit",
              s.defaultLayout().stripeUnit()));
    }
    return m;
  }

  /**
   * One line of {@code ls -l}: mode, size, time, layout (a directory's own default, "-" when it
   * inherits one), then the entry's name ({@code asEntry}) or its path.
   */
  static String longLine(FileStatus s, boolean asEntry) {
    String layout =
        s.log() != null
            ? "log:"
                + compact(
                    s.log().layout().dataUnits(),
                    s.log().layout().parityUnits(),
                    s.log().layout().stripeUnit())
            : s.layout() != null
                ? compact(s.layout().dataUnits(), s.layout().parityUnits(), s.layout().stripeUnit())
                : s.defaultLayout() != null
                    ? (s.defaultLayout().log() ? "log:" : "")
                        + compact(
                            s.defaultLayout().dataUnits(),
                            s.defaultLayout().parityUnits(),
                            s.defaultLayout().stripeUnit())
                    : "-";
    String name = Names.escaped(asEntry ? s.name() : s.path());
    return String.format(
        Locale.ROOT,
        "%s %5s %5s %14d %s %-12s %s",
        Permissions.symbolic(s.directory(), s.mode()),
        Integer.toUnsignedString(s.owner().uid()),
        Integer.toUnsignedString(s.owner().gid()),
        s.size(),
        s.modified().toString().substring(0, 19).replace('T', ' '),
        layout,
        s.directory() ? name + "/" : name);
  }

  private static String compact(int k, int m, int unit) {
    return k + "+" + m + "/" + DataSize.format(unit).replace(" ", "");
  }
}
