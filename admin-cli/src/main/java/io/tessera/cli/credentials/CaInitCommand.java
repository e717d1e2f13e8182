package io.tessera.cli.credentials;

import io.tessera.ca.CertificateAuthority;
import io.tessera.common.security.Identity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tessera ca init}. */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    description = {
      "Create a cluster CA in DIR/ca: ca.key (its key and certificate, mode 0600: keep it safe,"
          + " whoever holds it can issue any credentials) and ca.crt (its certificate alone).",
      "Refuses to replace an existing CA (every credential it issued would stop working).",
      "Example: tessera ca init --dir /etc/tessera --name prod"
    })
public final class CaInitCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--dir",
      defaultValue = "tessera-data",
      description = "the cluster directory; the CA goes in DIR/ca (default: ${DEFAULT-VALUE})")
  Path dir;

  @Option(
      names = "--name",
      defaultValue = "tessera",
      description = "the cluster's name, in the CA certificate (default: ${DEFAULT-VALUE})")
  String name;

  @Override
  public Integer call() throws Exception {
    Identity.requireValidName(name);
    Path caDir = dir.resolve("ca");
    Files.createDirectories(caDir);
    CertificateAuthority ca = CertificateAuthority.create(caDir, name);
    spec.commandLine()
        .getOut()
        .printf(
            "Created the CA of cluster %s (key %s) in %s: %s (mode 0600) and %s%n",
            name,
            ca.fingerprint(),
            caDir,
            CertificateAuthority.KEY_FILE,
            CertificateAuthority.CERTIFICATE_FILE);
    return 0;
  }
}
