package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.RegionHolder;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.region.Region;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera fs locks}. */
@Command(
    name = "locks",
    mixinStandardHelpOptions = true,
    description = {
      "List who holds region locks and sharing intents of a file: the client, the byte range,"
          + " shared or exclusive, and how long its lease runs unless it renews it.",
      "A lock marked 'called back' is one another client is waiting for. A client that died"
          + " holding locks keeps them until its lease runs out (tessera.meta.region-lease)."
    })
public final class LocksCommand extends ConnectedCommand {
  @Parameters(
      converter = ClusterPaths.class,
      paramLabel = "PATH",
      description = "a file in the cluster")
  String path;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    String p = path;
    List<RegionHolder> holders = fs.regionHolders(p);
    if (holders.isEmpty()) {
      out().printf("%s: no region locks or sharing intents%n", Names.escaped(p));
      return 0;
    }
    out().printf("%-44s %-28s %-26s %s%n", "CLIENT", "RANGE", "MODE", "LEASE LEFT");
    for (RegionHolder h : holders) {
      out()
          .printf(
              "%-44s %-28s %-26s %.1f s%n",
              h.client(),
              h.region() == null ? "-" : range(h.region()),
              h.region() == null
                  ? "intent: " + h.sharing()
                  : (h.region().exclusive() ? "exclusive" : "shared")
                      + (h.calledBack() ? ", called back" : ""),
              h.leaseLeft().toMillis() / 1000.0);
    }
    return 0;
  }

  private static String range(Region r) {
    return String.format(
        Locale.ROOT,
        "[%d, %s)",
        r.start(),
        r.end() == Region.TO_END ? "end" : Long.toString(r.end()));
  }
}
