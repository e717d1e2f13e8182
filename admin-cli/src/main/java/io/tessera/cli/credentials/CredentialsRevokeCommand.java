package io.tessera.cli.credentials;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.security.Identity;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera credentials revoke}. */
@Command(
    name = "revoke",
    mixinStandardHelpOptions = true,
    description = {
      "Revoke a user's credentials (every certificate of that name issued until now), a server's"
          + " (--server), or one certificate (--serial). Every server refuses them within"
          + " seconds and closes the connections they hold open; credentials issued later for the"
          + " same name work (admins only).",
      "Example: tessera credentials revoke bob"
    })
public final class CredentialsRevokeCommand extends ConnectedCommand {
  @Parameters(arity = "0..1", paramLabel = "NAME", description = "the user (or server) to revoke")
  String name;

  @Option(names = "--server", description = "NAME is a server's id")
  boolean server;

  @Option(names = "--serial", paramLabel = "HEX", description = "revoke this one certificate")
  String serial;

  @Override
  protected void checkArguments() {
    if ((name == null) == (serial == null)) {
      throw new IllegalArgumentException("give a NAME, or --serial HEX");
    }
    if (serial != null && !serial.matches("[0-9a-fA-F]{1,40}")) {
      throw new IllegalArgumentException(
          "--serial "
              + serial
              + ": a serial is hexadecimal, as tessera credentials list shows it (e.g. 3f9a01)");
    }
    if (name != null) {
      Identity.requireValidName(name);
    }
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    if (serial != null) {
      fs.admin().credentials().revokeSerial(serial.toLowerCase(Locale.ROOT));
      out().printf("Revoked the certificate with serial %s.%n", serial);
    } else {
      fs.admin().credentials().revoke(name, server);
      out()
          .printf(
              "Revoked every certificate of %s %s issued until now.%n",
              server ? "server" : "user", name);
    }
    return 0;
  }
}
