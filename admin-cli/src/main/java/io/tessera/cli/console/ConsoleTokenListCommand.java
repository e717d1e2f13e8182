package io.tessera.cli.console;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ConsoleAdmin;
import java.util.List;
import picocli.CommandLine.Command;

/** {@code tessera console token list}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "List console tokens (id, name, role, created); never their secrets.")
public final class ConsoleTokenListCommand extends ConnectedCommand {
  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    List<ConsoleAdmin.Token> tokens = fs.admin().console().tokens();
    if (tokens.isEmpty()) {
      out().println("No console tokens (tessera console token create --name NAME makes one).");
      return 0;
    }
    out().printf("%-14s %-24s %-10s %s%n", "ID", "NAME", "ROLE", "CREATED");
    for (ConsoleAdmin.Token t : tokens) {
      out().printf("%-14s %-24s %-10s %s%n", t.id(), t.name(), t.role(), t.created());
    }
    return 0;
  }
}
