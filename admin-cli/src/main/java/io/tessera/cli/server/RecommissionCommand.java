package io.tessera.cli.server;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.cluster.ServerIds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera server recommission ID}: take a decommission back. */
@Command(
    name = "recommission",
    mixinStandardHelpOptions = true,
    description = {
      "Take back a decommission: the data server recovers (the shards already moved off it are "
          + "deleted there; files not moved yet stay where they are), then takes new files again."
    })
public final class RecommissionCommand extends ConnectedCommand {
  @Parameters(
      paramLabel = "ID",
      description = "the data server's id, as tessera cluster status lists it")
  String server;

  @Override
  protected void checkArguments() {
    ServerIds.requireValid(server);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    out().println(fs.admin().recommission(server));
    return 0;
  }
}
