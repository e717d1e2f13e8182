package io.tessera.cli.fs;

import io.tessera.client.AttributeChange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera fs chgrp 100 /a/b}. */
@Command(
    name = "chgrp",
    mixinStandardHelpOptions = true,
    description = "Change the group (GID), as a number.")
public final class ChgrpCommand extends AttributeCommand {
  @Parameters(index = "0", paramLabel = "GID", description = "numeric group")
  String group;

  @Override
  AttributeChange change() {
    return AttributeChange.owner(null, id(group, "group"));
  }
}
