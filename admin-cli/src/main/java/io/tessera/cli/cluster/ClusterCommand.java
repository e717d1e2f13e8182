package io.tessera.cli.cluster;

import picocli.CommandLine.Command;

/** {@code tessera cluster}. */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = "Inspect the cluster.",
    subcommands = {ClusterStatusCommand.class, RollingRestartCommand.class})
public final class ClusterCommand {}
