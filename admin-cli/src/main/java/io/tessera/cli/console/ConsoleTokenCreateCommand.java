package io.tessera.cli.console;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ConsoleAdmin;
import io.tessera.common.cluster.ConsoleTokenNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tessera console token create}. */
@Command(
    name = "create",
    mixinStandardHelpOptions = true,
    description = {
      "Create a console token and print it (or write it to --output, readable by you only).",
      "Example: tessera console token create --name grafana --read-only --output grafana.token"
    })
public final class ConsoleTokenCreateCommand extends ConnectedCommand {
  @Option(
      names = "--name",
      required = true,
      description = "who or what the token is for; the audit log names its actions by it")
  String name;

  @Option(names = "--read-only", description = "it may look but not act (default: admin)")
  boolean readOnly;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "write the token to FILE (mode 0600) instead of printing it")
  Path output;

  @Override
  protected void checkArguments() {
    if (!ConsoleTokenNames.valid(name)) {
      throw new IllegalArgumentException("--name: " + ConsoleTokenNames.whyInvalid(name));
    }
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    ConsoleAdmin.NewToken t = fs.admin().console().createToken(name, !readOnly);
    if (output == null) {
      out().println(t.bearer());
      err()
          .printf(
              "Created %s token %s for %s. It is shown only now.%n",
              t.token().role(), t.token().id(), name);
      return 0;
    }
    writePrivate(output, t.bearer());
    out()
        .printf(
            "Created %s token %s for %s in %s (mode 0600).%n",
            t.token().role(), t.token().id(), name, output);
    return 0;
  }

  /** Writes {@code token} to a file only its owner can read, created with that mode. */
  public static void writePrivate(Path file, String token) throws IOException {
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, token + "\n", StandardOpenOption.TRUNCATE_EXISTING);
  }
}
