package io.tessera.cli;

import io.tessera.bench.BenchCommand;
import io.tessera.cli.check.FsckCommand;
import io.tessera.cli.cluster.ClusterCommand;
import io.tessera.cli.console.ConsoleCommand;
import io.tessera.cli.credentials.CaCommand;
import io.tessera.cli.credentials.CredentialsCommand;
import io.tessera.cli.fs.FsCommand;
import io.tessera.cli.local.LocalCommand;
import io.tessera.cli.qos.QosCommand;
import io.tessera.cli.recover.RecoverCommand;
import io.tessera.cli.server.ServerCommand;
import io.tessera.cli.server.ServerConfigFile;
import io.tessera.cli.snapshot.SnapshotCommand;
import io.tessera.common.platform.CommonPool;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code tessera} command. */
@Command(
    name = "tessera",
    mixinStandardHelpOptions = true,
    version = "tessera 0.1.0",
    description = {
      "Tessera: a parallel file system for clusters.",
      "",
      "Start a whole cluster on this machine with 'tessera local', then use 'tessera fs ...'.",
      "Commands find the cluster from --meta host:port,..., then $TESSERA_META, then the cluster.json that "
          + "'tessera local' keeps in tessera-data in the current directory."
    },
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
      "0:done",
      "1:refused or failed (the message says why)",
      "2:bad usage: an unknown option, or a malformed value (refused before any cluster is asked)",
      "3:cluster unreachable (no meta replica answered)",
      "4:data unreadable now (its servers are down beyond what its parity rebuilds)",
      "5:not authenticated, or not permitted (credentials, permissions, admin-only requests)"
    })
public final class Tessera {
  /** The top-level commands, in the order help lists them. */
  private static final List<Class<?>> COMMANDS =
      List.of(
          LocalCommand.class,
          ServerCommand.class,
          FsCommand.class,
          FsckCommand.class,
          SnapshotCommand.class,
          ClusterCommand.class,
          QosCommand.class,
          ConsoleCommand.class,
          CredentialsCommand.class,
          CaCommand.class,
          RecoverCommand.class,
          BenchCommand.class,
          SettingsCommand.class,
          CommandLine.HelpCommand.class);

  /** Exit code when the cluster refused or failed the request. */
  public static final int EXIT_FAILED = 1;

  /** Exit code for bad command-line usage (picocli's own). */
  public static final int EXIT_USAGE = 2;

  /** Exit code when no meta replica could be reached. */
  public static final int EXIT_UNREACHABLE = 3;

  /**
   * Exit code when data could not be read: its servers are down beyond what its parity rebuilds.
   */
  public static final int EXIT_UNREADABLE = 4;

  /**
   * Exit code when the cluster does not know the caller (no or foreign credentials) or does not let
   * it do this (permissions, admin-only requests).
   */
  public static final int EXIT_DENIED = 5;

  private Tessera() {}

  public static void main(String[] args) {
    CliLogging.configure(args); // before any logger exists
    CommonPool.ensureThreads(); // before anything starts the pool
    System.exit(run(args));
  }

  /** Runs a command line and returns its exit code. */
  public static int run(String... args) {
    return run(null, null, args);
  }

  /** Every command, as the command line parses them. */
  static CommandLine commandLine() {
    return withCommands(COMMANDS);
  }

  /**
   * The parser for {@code args}: only the top-level command they name, when they name one (other
   * than help). Picocli reads every option of every command it is given, by reflection and mostly
   * interpreted, so building only the branch asked for makes every start cheaper.
   */
  static CommandLine commandLine(String... args) {
    if (args.length > 0) {
      for (Class<?> c : COMMANDS) {
        Command command = c.getAnnotation(Command.class);
        if (c != CommandLine.HelpCommand.class
            && (command.name().equals(args[0])
                || Arrays.asList(command.aliases()).contains(args[0]))) {
          return withCommands(List.of(c));
        }
      }
    }
    return commandLine();
  }

  private static CommandLine withCommands(List<Class<?>> commands) {
    CommandLine cl = new CommandLine(new Tessera());
    commands.forEach(cl::addSubcommand);
    takeDashedValues(cl);
    return cl;
  }

  /**
   * A value that starts with a dash ("fs chown -5:-5 /f") is read as the value it is by the
   * commands that take such values, not as an unknown option (picocli then reported a missing
   * parameter instead of the bad value).
   */
  private static void takeDashedValues(CommandLine cl) {
    if (cl.getCommand() instanceof TakesDashedValues) {
      cl.setUnmatchedOptionsArePositionalParams(true);
    }
    cl.getSubcommands().values().forEach(Tessera::takeDashedValues);
  }

  /**
   * Runs a command line writing to the given streams (null: standard ones); returns the exit code.
   */
  public static int run(PrintWriter out, PrintWriter err, String... args) {
    CommandLine cl = commandLine(args);
    cl.setExecutionExceptionHandler(new ErrorReporter());
    if (out != null) {
      cl.setOut(out);
    }
    if (err != null) {
      cl.setErr(err);
    }
    if (args.length > 0 && args[0].equals("server")) {
      try {
        ServerConfigFile.install(cl, args);
      } catch (IllegalArgumentException e) {
        cl.getErr().println("tessera: " + e.getMessage());
        return EXIT_USAGE;
      }
    }
    return cl.execute(args);
  }
}
