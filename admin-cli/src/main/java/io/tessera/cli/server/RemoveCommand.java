package io.tessera.cli.server;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.cluster.ServerIds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera server remove ID}: forget a retired data server that no longer runs. */
@Command(
    name = "remove",
    mixinStandardHelpOptions = true,
    description = {
      "Forget a retired data server that has been stopped: tessera cluster status stops listing it.",
      "Only a retired server can be removed (tessera server decommission ID --wait, then stop it). Copies of "
          + "moved files still on its disk are no longer tracked: discard its directory. Started again, it "
          + "registers as a new, empty server."
    })
public final class RemoveCommand extends ConnectedCommand {
  @Parameters(
      paramLabel = "ID",
      description = "the data server's id, as tessera cluster status lists it")
  String server;

  @Option(
      names = "--force",
      description =
          "remove it although snapshots taken before it retired exist: moves copy "
              + "live versions only, so their reads then decode around it (and fail where a file lost more units than it has "
              + "parity)")
  boolean force;

  @Override
  protected void checkArguments() {
    ServerIds.requireValid(server);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    out().println(fs.admin().removeServer(server, force));
    return 0;
  }
}
