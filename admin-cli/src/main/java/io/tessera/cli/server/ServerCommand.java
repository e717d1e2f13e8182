package io.tessera.cli.server;

import picocli.CommandLine.Command;

/** {@code tessera server}: run one server process in the foreground. */
@Command(name = "server", mixinStandardHelpOptions = true,
    description = "Run one server process in the foreground (what 'tessera local' starts, one per server).",
    subcommands = {MetaServerCommand.class, DataServerCommand.class})
public final class ServerCommand {}
