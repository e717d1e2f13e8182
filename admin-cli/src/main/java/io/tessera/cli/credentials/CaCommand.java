package io.tessera.cli.credentials;

import picocli.CommandLine.Command;

/** {@code tessera ca}. */
@Command(
    name = "ca",
    mixinStandardHelpOptions = true,
    description = {
      "The cluster's certificate authority: every server and user proves who it is with a"
          + " certificate it signed.",
      "tessera local creates one in <dir>/ca at its first start; a cluster of many machines starts"
          + " with tessera ca init, then tessera credentials issue --server ID for each server."
    },
    subcommands = {CaInitCommand.class})
public final class CaCommand {}
