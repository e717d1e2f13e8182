package io.tessera.cli;

import io.tessera.cli.bench.BenchCommand;
import io.tessera.cli.check.FsckCommand;
import io.tessera.cli.cluster.ClusterCommand;
import io.tessera.cli.recover.RecoverCommand;
import io.tessera.cli.fs.FsCommand;
import io.tessera.cli.local.LocalCommand;
import io.tessera.cli.server.ServerCommand;
import io.tessera.cli.snapshot.SnapshotCommand;
import io.tessera.common.platform.CommonPool;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tessera} command. */
@Command(name = "tessera", mixinStandardHelpOptions = true, version = "tessera 0.1.0",
    description = {"Tessera: a parallel file system for clusters.", "",
        "Start a whole cluster on this machine with 'tessera local', then use 'tessera fs ...'.",
        "Commands find the cluster from --meta host:port,..., $TESSERA_META, or ./tessera-data/cluster.json."},
    subcommands = {LocalCommand.class, ServerCommand.class, FsCommand.class, FsckCommand.class,
        SnapshotCommand.class, ClusterCommand.class, RecoverCommand.class, BenchCommand.class, SettingsCommand.class,
        CommandLine.HelpCommand.class})
public final class Tessera {
  /** Exit code when the cluster refused or failed the request. */
  public static final int EXIT_FAILED = 1;
  /** Exit code for bad command-line usage (picocli's own). */
  public static final int EXIT_USAGE = 2;
  /** Exit code when no meta replica could be reached. */
  public static final int EXIT_UNREACHABLE = 3;

  private Tessera() {}

  public static void main(String[] args) {
    CommonPool.ensureThreads(); // before anything starts the pool
    System.exit(run(args));
  }

  /** Runs a command line and returns its exit code. */
  public static int run(String... args) {
    return run(null, null, args);
  }

  /** Every command, as the command line parses them. */
  static CommandLine commandLine() {
    return new CommandLine(new Tessera());
  }

  /** Runs a command line writing to the given streams (null: standard ones); returns the exit code. */
  public static int run(java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
    CommandLine cl = commandLine();
    cl.setExecutionExceptionHandler(new ErrorReporter());
    if (out != null) {
      cl.setOut(out);
    }
    if (err != null) {
      cl.setErr(err);
    }
    return cl.execute(args);
  }
}
