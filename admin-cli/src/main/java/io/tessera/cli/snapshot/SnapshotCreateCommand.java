package io.tessera.cli.snapshot;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.SnapshotInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera snapshot create NAME}. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = {
      "Take a snapshot of the whole file system now.",
      "Writes pause for about one write's time while every data server drains its stripe locks;",
      "a busy server makes the meta leader retry after a short back-off."
    })
public final class SnapshotCreateCommand extends ConnectedCommand {
  @Parameters(
      index = "0",
      paramLabel = "NAME",
      description = "letters, digits, '.', '_' or '-' (up to 128)")
  String name;

  @Override
  protected void checkArguments() {
    SnapshotArguments.checkNames(name);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    SnapshotInfo s = fs.admin().snapshots().create(name);
    out()
        .printf(
            "Snapshot %s: epoch %d, taken %s, in %d ms%s%s%n",
            s.name(),
            s.epoch(),
            s.created(),
            s.tookMillis(),
            s.attempts() > 1 ? " (" + s.attempts() + " attempts)" : "",
            s.missingServers().isEmpty()
                ? ""
                : "; without down data servers "
                    + s.missingServers()
                    + " (their shards are read around)");
    return 0;
  }
}
