package io.tessera.cli.snapshot;

import picocli.CommandLine.Command;

/** {@code tessera snapshot}. */
@Command(
    name = "snapshot",
    mixinStandardHelpOptions = true,
    description = {
      "Snapshots of the whole file system, taken while it is busy.",
      "",
      "A snapshot's files are readable (read-only) at /.snapshots/<name>/... with every fs command,",
      "e.g. tessera fs get /.snapshots/nightly-01/results/a.dat old.dat"
    },
    subcommands = {
      SnapshotCreateCommand.class,
      SnapshotListCommand.class,
      SnapshotDiffCommand.class,
      SnapshotRestoreCommand.class,
      SnapshotDeleteCommand.class
    })
public final class SnapshotCommand {}
