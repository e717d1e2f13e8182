package io.tessera.cli.recover;

import picocli.CommandLine.Command;

/** {@code tessera recover}. */
@Command(
    name = "recover",
    mixinStandardHelpOptions = true,
    description =
        "Follow recovery: the rebuilds of shards that servers missed while down or lost to corruption.",
    subcommands = {RecoverStatusCommand.class})
public final class RecoverCommand {}
