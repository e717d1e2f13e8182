package io.tessera.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * A command line builds only the command it names, and still reads and helps as the whole tree
 * would.
 */
class TesseraCommandLineTest {
  private static final String[] EVERY_COMMAND = {
    "local",
    "server",
    "fs",
    "fsck",
    "snapshot",
    "cluster",
    "qos",
    "console",
    "credentials",
    "ca",
    "recover",
    "bench",
    "settings",
    "help"
  };

  @Test
  void aServerStartBuildsOnlyTheServerCommandsYetItsHelpNamesTheWholeCommand() {
    CommandLine cl = Tessera.commandLine("server", "data", "--id", "ds-1");

    assertThat(cl.getSubcommands()).containsOnlyKeys("server");
    assertThat(
            cl.getSubcommands()
                .get("server")
                .getSubcommands()
                .get("data")
                .getUsageMessage(CommandLine.Help.Ansi.OFF))
        .contains("Usage: tessera server data");
  }

  @Test
  void helpNoCommandAndAMistypedCommandGetEveryCommandSoHelpAndSuggestionsListThemAll() {
    assertThat(Tessera.commandLine().getSubcommands().keySet()).containsExactly(EVERY_COMMAND);
    assertThat(Tessera.commandLine("help", "fs").getSubcommands().keySet())
        .containsExactly(EVERY_COMMAND);
    assertThat(Tessera.commandLine("--help").getSubcommands().keySet())
        .containsExactly(EVERY_COMMAND);
    assertThat(Tessera.commandLine("sever", "data").getSubcommands().keySet())
        .containsExactly(EVERY_COMMAND);
  }

  @Test
  void aMistypedCommandIsReportedWithTheCommandsThatExist() {
    StringWriter err = new StringWriter();
    int code =
        Tessera.run(
            new PrintWriter(new StringWriter(), true), new PrintWriter(err, true), "sever", "data");

    assertThat(code).isEqualTo(Tessera.EXIT_USAGE);
    assertThat(err.toString()).contains("'sever'").contains("Did you mean: tessera server");
  }
}
