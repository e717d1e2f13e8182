package io.tessera.cli.console;

import picocli.CommandLine.Command;

/** {@code tessera console}. */
@Command(
    name = "console",
    mixinStandardHelpOptions = true,
    description = {
      "The web console and REST API every meta replica serves (tessera local prints its URL).",
      "",
      "Every API call carries a token: 'Authorization: Bearer <token>'. Admin tokens may act"
          + " (snapshots, restore, repair, QoS settings), read-only tokens only look.",
      "Every action is recorded: tessera console audit shows who did what, when, and how it ended."
    },
    subcommands = {ConsoleTokenCommand.class, ConsoleAuditCommand.class})
public final class ConsoleCommand {}
