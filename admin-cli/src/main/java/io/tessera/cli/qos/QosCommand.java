package io.tessera.cli.qos;

import picocli.CommandLine.Command;

/** {@code tessera qos}. */
@Command(
    name = "qos",
    mixinStandardHelpOptions = true,
    description = {
      "Per-application shares of the data servers' bandwidth, applied by the QoS proxies "
          + "(tessera local --qos starts one per data server).",
      "An application is the --app-id of a command, $TESSERA_APP_ID, or tessera.client.app-id in "
          + "Java. While applications compete, each gets service in proportion to its weight, "
          + "summed over all servers; a reservation is a floor it gets first, a limit a ceiling."
    },
    subcommands = {
      QosSetCommand.class,
      QosResetCommand.class,
      QosListCommand.class,
      QosStatusCommand.class
    })
public final class QosCommand {}
