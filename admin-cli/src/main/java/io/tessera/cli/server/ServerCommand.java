package io.tessera.cli.server;

import picocli.CommandLine.Command;

/** {@code tessera server}: run one server process in the foreground, or retire a data server. */
@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
      "Run one server process in the foreground (what 'tessera local' starts, one per server), start a "
          + "stopped one of a local cluster again, or decommission a data server (or take that back), and remove it "
          + "once it is retired and stopped."
    },
    subcommands = {
      MetaServerCommand.class,
      DataServerCommand.class,
      ProxyServerCommand.class,
      NfsServerCommand.class,
      RestartCommand.class,
      DecommissionCommand.class,
      RecommissionCommand.class,
      RemoveCommand.class
    })
public final class ServerCommand {}
