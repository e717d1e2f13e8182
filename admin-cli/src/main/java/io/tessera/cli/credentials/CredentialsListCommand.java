package io.tessera.cli.credentials;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.CliJson;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.CredentialsAdmin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tessera credentials list}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "List the credentials recorded in the cluster (who, uid, admin, serial, issued,"
            + " expires, revoked) and the revocations (admins only).")
public final class CredentialsListCommand extends ConnectedCommand {
  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    CredentialsAdmin.Listing l = fs.admin().credentials().list();
    if (json) {
      CliJson.print(out(), l);
      return 0;
    }
    if (l.issued().isEmpty()) {
      out().println("No credentials recorded (tessera credentials issue records what it issues).");
    } else {
      out()
          .printf(
              "%-20s %-8s %-12s %-6s %-34s %-20s %-10s%n",
              "NAME", "KIND", "UID:GID", "ADMIN", "SERIAL", "EXPIRES", "STATE");
      for (CredentialsAdmin.Issued i : l.issued()) {
        out()
            .printf(
                "%-20s %-8s %-12s %-6s %-34s %-20s %-10s%n",
                i.name(),
                i.server() ? i.role() : "user",
                i.server()
                    ? "-"
                    : Integer.toUnsignedString(i.uid()) + ":" + Integer.toUnsignedString(i.gid()),
                i.admin() ? "yes" : "",
                i.serial(),
                i.expires().toString().substring(0, 19),
                l.revoked(i) ? "revoked" : "valid");
      }
    }
    for (CredentialsAdmin.Revocation r : l.revocations()) {
      out()
          .printf(
              "Revoked %s by %s at %s%n",
              r.serial().isEmpty()
                  ? (r.server() ? "server " : "user ") + r.name() + " (issued before it)"
                  : "serial " + r.serial(),
              r.by(),
              r.revoked());
    }
    return 0;
  }
}
