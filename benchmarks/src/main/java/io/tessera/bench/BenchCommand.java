package io.tessera.bench;

import picocli.CommandLine.Command;

/** {@code tessera bench}. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks against a running cluster.",
    subcommands = {
      IorCommand.class,
      ExerciserCommand.class,
      LockBenchCommand.class,
      MetaBenchCommand.class,
      MetaClientCommand.class,
      SnapshotOverheadCommand.class,
      SnapshotReadDiffCommand.class,
      RebuildCommand.class,
      QosBenchCommand.class,
      NfsBenchCommand.class,
      HandshakeBenchCommand.class
    })
public final class BenchCommand {}
