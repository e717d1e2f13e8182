package io.tessera.cli.credentials;

import picocli.CommandLine.Command;

/** {@code tessera credentials}. */
@Command(
    name = "credentials",
    mixinStandardHelpOptions = true,
    description = {
      "Who may use the cluster: credentials files (the CA's certificate, a user's or a server's"
          + " certificate, its key; mode 0600) issued by the cluster CA.",
      "Commands find theirs from --credentials FILE, then $TESSERA_CREDENTIALS, then the admin"
          + " credentials named in ./tessera-data/cluster.json."
    },
    subcommands = {
      CredentialsIssueCommand.class,
      CredentialsListCommand.class,
      CredentialsRevokeCommand.class
    })
public final class CredentialsCommand {}
