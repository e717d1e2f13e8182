package io.tessera.cli.console;

import picocli.CommandLine.Command;

/** {@code tessera console token}. */
@Command(
    name = "token",
    mixinStandardHelpOptions = true,
    description = {
      "Create, list and revoke console tokens.",
      "The meta group keeps only a hash of each token: a token is shown once, when it is created."
    },
    subcommands = {
      ConsoleTokenCreateCommand.class,
      ConsoleTokenListCommand.class,
      ConsoleTokenRevokeCommand.class
    })
public final class ConsoleTokenCommand {}
