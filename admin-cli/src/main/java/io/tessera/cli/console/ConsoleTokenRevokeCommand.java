package io.tessera.cli.console;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ConsoleAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera console token revoke}. */
@Command(
    name = "revoke",
    mixinStandardHelpOptions = true,
    description =
        "Revoke a console token by its id (tessera console token list) or its whole text; every"
            + " console refuses it within seconds.")
public final class ConsoleTokenRevokeCommand extends ConnectedCommand {
  @Parameters(paramLabel = "ID", description = "the token's id, or the token itself")
  String id;

  @Override
  protected void checkArguments() {
    ConsoleAdmin.tokenId(id);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    fs.admin().console().revoke(id);
    out().println("Revoked.");
    return 0;
  }
}
