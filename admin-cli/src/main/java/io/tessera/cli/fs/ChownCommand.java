package io.tessera.cli.fs;

import io.tessera.cli.TakesDashedValues;
import io.tessera.client.AttributeChange;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera fs chown 1000:100 /a/b}. */
@Command(
    name = "chown",
    mixinStandardHelpOptions = true,
    description = "Change the owner (UID) or the owner and group (UID:GID), as numbers.")
public final class ChownCommand extends AttributeCommand implements TakesDashedValues {
  @Parameters(index = "0", paramLabel = "UID[:GID]", description = "numeric owner, optional group")
  String owner;

  @Override
  AttributeChange change() {
    int colon = owner.indexOf(':');
    if (colon < 0) {
      return AttributeChange.owner(id(owner, "owner"), null);
    }
    return AttributeChange.owner(
        id(owner.substring(0, colon), "owner"), id(owner.substring(colon + 1), "group"));
  }
}
