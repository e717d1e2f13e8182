package io.tessera.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command's --help renders as written: picocli formats descriptions with {@code
 * String.format}, so a bare "10 %" printed three "[picocli WARN] Could not format" lines above the
 * help of `tessera bench ior`.
 */
class HelpTextTest {
  @Test
  void everyCommandsHelpRendersWithoutPicocliWarnings() {
    PrintStream original = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    List<String> helps = new ArrayList<>();
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      for (CommandLine cl : allCommands(Tessera.commandLine())) {
        helps.add(cl.getUsageMessage(CommandLine.Help.Ansi.OFF));
      }
    } finally {
      System.setErr(original);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8))
        .as("picocli's complaints while rendering every --help")
        .isEmpty();
    assertThat(helps)
        .as("commands rendered")
        .hasSizeGreaterThan(20)
        .anyMatch(
            h -> h.replaceAll("\\s+", " ").contains("within 10 % of the rate of the pass before"));
  }

  /**
   * A command list shows each command's first description line: `bench --help` cut one
   * mid-sentence.
   */
  @Test
  void everyCommandsFirstDescriptionLineIsAWholeSentence() {
    org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
    for (CommandLine cl : allCommands(Tessera.commandLine())) {
      String[] description = cl.getCommandSpec().usageMessage().description();
      if (description.length > 0) {
        soft.assertThat(description[0].strip())
            .as("first description line of %s", cl.getCommandSpec().qualifiedName())
            .matches(".*[.?!)]$");
      }
    }
    soft.assertAll();
  }

  /** `tessera --help` wrapped ./tessera-data as ". /tessera-data". */
  @Test
  void helpNeverStartsALineWithTheRestOfAPath() {
    org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
    for (CommandLine cl : allCommands(Tessera.commandLine())) {
      for (String line : cl.getUsageMessage(CommandLine.Help.Ansi.OFF).lines().toList()) {
        soft.assertThat(line.strip())
            .as("a line of %s --help", cl.getCommandSpec().qualifiedName())
            .doesNotStartWith("/");
      }
    }
    soft.assertAll();
  }

  private static List<CommandLine> allCommands(CommandLine cl) {
    List<CommandLine> all = new ArrayList<>(List.of(cl));
    for (CommandLine sub : cl.getSubcommands().values()) {
      all.addAll(allCommands(sub));
    }
    return all;
  }
}
