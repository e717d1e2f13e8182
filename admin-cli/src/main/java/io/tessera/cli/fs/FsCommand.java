package io.tessera.cli.fs;

import picocli.CommandLine.Command;

/** {@code tessera fs}: file-system commands. */
@Command(
    name = "fs",
    mixinStandardHelpOptions = true,
    description =
        "Work with files: paths are absolute inside the cluster (a relative one starts at /).",
    subcommands = {
      LsCommand.class,
      PutCommand.class,
      GetCommand.class,
      CatCommand.class,
      MkdirCommand.class,
      RmCommand.class,
      MvCommand.class,
      StatCommand.class,
      FlattenCommand.class,
      LocksCommand.class,
      ChmodCommand.class,
      ChownCommand.class,
      ChgrpCommand.class
    })
public final class FsCommand {}
