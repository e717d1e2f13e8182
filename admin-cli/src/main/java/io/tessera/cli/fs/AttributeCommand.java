package io.tessera.cli.fs;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.ClusterPaths;
import io.tessera.client.AttributeChange;
import io.tessera.client.TesseraFileSystem;
import java.util.List;
import picocli.CommandLine.Parameters;

/** chmod, chown and chgrp: one attribute change applied to each path named. */
abstract class AttributeCommand extends ConnectedCommand {
  @Parameters(
      converter = ClusterPaths.class,
      index = "1..*",
      arity = "1..*",
      paramLabel = "PATH",
      description = "files or directories")
  List<String> paths;

  /** The change, parsed from the first argument; a usage error names what was expected. */
  abstract AttributeChange change();

  private AttributeChange change;

  @Override
  protected void checkArguments() {
    change = change();
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    for (String p : paths) {
      fs.setAttributes(p, change);
    }
    return 0;
  }

  /** A numeric user or group id: names are not mapped (the cluster keeps numbers, as NFS does). */
  static int id(String text, String what) {
    try {
      int id = Integer.parseInt(text);
      if (id >= 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // falls through to the message below
    }
    throw new IllegalArgumentException(
        what + " '" + text + "' is not a number from 0 (Tessera keeps numeric ids, as NFS does)");
  }
}
