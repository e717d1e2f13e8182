package io.tessera.cli.fs;

import io.tessera.client.AttributeChange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera fs chmod 640 /a/b}. */
@Command(
    name = "chmod",
    mixinStandardHelpOptions = true,
    description = "Change permission bits, given in octal (e.g. 640, 0755, 1777).")
public final class ChmodCommand extends AttributeCommand {
  @Parameters(index = "0", paramLabel = "MODE", description = "octal permission bits")
  String mode;

  @Override
  AttributeChange change() {
    if (!mode.matches("[0-7]{1,4}")) {
      throw new IllegalArgumentException(
          "mode '" + mode + "' is not octal permission bits such as 644 or 0755");
    }
    return AttributeChange.mode(Integer.parseInt(mode, 8));
  }
}
