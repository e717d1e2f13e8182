package io.tessera.cli.console;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.CliJson;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ConsoleAdmin;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tessera console audit}. */
@Command(
    name = "audit",
    mixinStandardHelpOptions = true,
    description = {
      "Show the actions taken through the console, newest first.",
      "Each: when, who (token name and id), from where, what, on what, and how it ended.",
      "Refused attempts are listed too. The meta group keeps the newest 10,000."
    })
public final class ConsoleAuditCommand extends ConnectedCommand {
  @Option(names = "--limit", description = "at most this many (default 50, at most 1000)")
  int limit = 50;

  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Override
  protected void checkArguments() {
    if (limit < 1 || limit > 1000) {
      throw new IllegalArgumentException("--limit " + limit + ": from 1 to 1000 entries");
    }
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    List<ConsoleAdmin.AuditEntry> entries = fs.admin().console().audit(0, limit);
    if (json) {
      CliJson.print(out(), entries);
      return 0;
    }
    if (entries.isEmpty()) {
      out().println("No console actions recorded yet.");
      return 0;
    }
    for (ConsoleAdmin.AuditEntry e : entries) {
      out()
          .printf(
              "%6d %s %-28s %-15s %-22s %-30s %s%n",
              e.seq(), e.time(), e.who(), e.from(), e.action(), e.target(), e.result());
    }
    return 0;
  }
}
