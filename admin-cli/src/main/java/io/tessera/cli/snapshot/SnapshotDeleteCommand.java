package io.tessera.cli.snapshot;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera snapshot delete NAME}. */
@Command(
    name = "delete",
    mixinStandardHelpOptions = true,
    description =
        "Delete a snapshot; data servers free the shard versions no other snapshot needs, in the background.")
public final class SnapshotDeleteCommand extends ConnectedCommand {
  @Parameters(index = "0", paramLabel = "NAME")
  String name;

  @Override
  protected void checkArguments() {
    SnapshotArguments.checkNames(name);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    fs.admin().snapshots().delete(name);
    out().printf("Snapshot %s deleted; its space is freed in the background%n", name);
    return 0;
  }
}
