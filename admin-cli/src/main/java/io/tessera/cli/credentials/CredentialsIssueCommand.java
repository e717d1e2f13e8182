package io.tessera.cli.credentials;

import io.tessera.ca.CertificateAuthority;
import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.Identity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tessera credentials issue}. */
@Command(
    name = "issue",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Issue credentials signed by the cluster CA, for a user or a server, and record them in the"
          + " cluster (if it is reachable: they work all the same).",
      "The user's name, uid, gid, groups and admin flag are in the certificate: the cluster takes"
          + " them from there, never from a request.",
      "Examples:",
      "  tessera credentials issue --user bob --uid 1001 --gid 1001 --groups 100,200 --output"
          + " bob.credentials",
      "  tessera credentials issue --server ds-7 --host 10.0.0.7 --dir /etc/tessera"
    })
public final class CredentialsIssueCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Who who;

  /** A user or a server. */
  static final class Who {
    @Option(names = "--user", paramLabel = "NAME", description = "a user's credentials")
    String user;

    @Option(
        names = "--server",
        paramLabel = "ID",
        description = "a server's credentials (its id: m1, ds-7, proxy-ds-7, nfs-1)")
    String server;
  }

  @Option(names = "--uid", description = "the user's numeric id (with --user)")
  Integer uid;

  @Option(names = "--gid", description = "the user's primary group (with --user)")
  Integer gid;

  @Option(
      names = "--groups",
      split = ",",
      paramLabel = "GID,...",
      description = "the user's other groups (with --user)")
  List<Integer> groups = new ArrayList<>();

  @Option(
      names = "--admin",
      description =
          "an admin: snapshots, QoS, decommissioning, console tokens, credentials, and every"
              + " file (with --user)")
  boolean admin;

  @Option(
      names = "--role",
      description =
          "the server's role: meta, data, proxy or gateway (default: from its id, m* meta, ds-*"
              + " data, proxy-* proxy, nfs-* gateway)")
  String role;

  @Option(
      names = "--host",
      paramLabel = "HOST",
      description = "a name or address the server is reached at, put in its certificate")
  List<String> hosts = new ArrayList<>();

  @Option(
      names = "--days",
      description = "how long they are valid (default: 365 for users, 7300 for servers)")
  Integer days;

  @Option(
      names = "--output",
      paramLabel = "FILE",
      description = "where to write them, mode 0600 (default: NAME.credentials here)")
  Path output;

  @Option(
      names = {"-f", "--force"},
      description = "replace an existing --output file")
  boolean force;

  @Option(
      names = "--dir",
      defaultValue = "tessera-data",
      description =
          "the cluster directory whose CA signs, DIR/ca/ca.key (default: ${DEFAULT-VALUE})")
  Path dir;

  @Option(
      names = "--ca-key",
      paramLabel = "FILE",
      description = "the CA key file (instead of --dir)")
  Path caKey;

  @Option(names = "--no-record", description = "do not record them in the cluster")
  boolean noRecord;

  @Mixin ClusterOptions cluster;

  @Override
  public Integer call() throws Exception {
    Identity id = identity();
    Path out = output != null ? output : Path.of(id.name() + ".credentials");
    if (Files.exists(out) && !force) {
      throw new IllegalArgumentException(
          out + " exists: give another --output, or -f to replace it");
    }
    int valid = days != null ? days : id.isServer() ? 7300 : 365;
    if (valid < 1) {
      throw new IllegalArgumentException("--days " + valid + ": at least 1");
    }
    CertificateAuthority ca =
        CertificateAuthority.load(
            caKey != null ? caKey : dir.resolve("ca").resolve(CertificateAuthority.KEY_FILE));
    Credentials issued = ca.issue(id, Duration.ofDays(valid), hosts);
    issued.write(out);
    var printed = spec.commandLine().getOut();
    printed.printf(
        "Issued credentials for %s, valid %d days, serial %s: %s (mode 0600)%n",
        issued.identity().describe(), valid, issued.identity().serial(), out);
    if (!noRecord) {
      record(issued);
    }
    return 0;
  }

  private Identity identity() {
    if (who.user != null) {
      Identity.requireValidName(who.user);
      if (uid == null || gid == null) {
        throw new IllegalArgumentException("--user needs --uid and --gid");
      }
      if (uid < 0 || gid < 0 || groups.stream().anyMatch(g -> g < 0)) {
        throw new IllegalArgumentException("--uid, --gid and --groups are numbers from 0");
      }
      if (role != null || !hosts.isEmpty()) {
        throw new IllegalArgumentException(
            "--role and --host are a server's (--server ID): a user's credentials carry neither");
      }
      return Identity.user(who.user, uid, gid, groups, admin);
    }
    Identity.requireValidName(who.server);
    if (uid != null || gid != null || !groups.isEmpty() || admin) {
      throw new IllegalArgumentException(
          "--uid, --gid, --groups and --admin are a user's: a server acts as the cluster itself");
    }
    return Identity.server(who.server, role(who.server));
  }

  private Identity.Role role(String id) {
    if (role != null) {
      try {
        return Identity.Role.valueOf(role.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "--role " + role + ": one of meta, data, proxy, gateway");
      }
    }
    if (id.startsWith("proxy-")) {
      return Identity.Role.PROXY;
    }
    if (id.startsWith("nfs-")) {
      return Identity.Role.GATEWAY;
    }
    if (id.startsWith("ds-")) {
      return Identity.Role.DATA;
    }
    if (id.matches("m[0-9]+")) {
      return Identity.Role.META;
    }
    throw new IllegalArgumentException(
        "cannot tell the role of server " + id + " from its id: give --role");
  }

  /** Records them in the cluster, or says why not: they work unrecorded all the same. */
  private void record(Credentials issued) {
    try (TesseraFileSystem fs = cluster.connect()) {
      fs.admin().credentials().register(issued.certificate());
    } catch (IOException | RuntimeException e) {
      spec.commandLine()
          .getErr()
          .println(
              "tessera: not recorded in the cluster ("
                  + e.getMessage()
                  + "); the credentials work all the same, tessera credentials list will not show"
                  + " them");
    }
  }
}
