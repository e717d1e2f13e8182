package io.tessera.localcluster;

import io.tessera.ca.CertificateAuthority;
import io.tessera.client.Owner;
import io.tessera.common.security.Identity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The certificates of a cluster on this machine: at its first start a CA of its own ({@code
 * <dir>/ca/}), credentials for every server ({@code <dir>/credentials/<id>.credentials}) and for
 * one administrator ({@code <dir>/admin.credentials}), all readable by the one who started it
 * alone. Later starts keep what exists and add only what is missing (a server added by --qos).
 */
public final class ClusterCredentials {
  /** Servers of a local cluster keep their certificates as long as the cluster. */
  static final Duration SERVER_VALIDITY = Duration.ofDays(20 * 365);

  /** The administrator {@code tessera local} issues credentials for. */
  public static final String ADMIN = "admin";

  private ClusterCredentials() {}

  /**
   * The credentials of one more server of the cluster (a second NFS gateway, say), issued by its CA
   * unless they exist; returns their file.
   */
  public static Path server(ClusterPlan plan, String id, Identity.Role role) throws IOException {
    Path file = plan.credentialsFile(id);
    if (!Files.exists(file)) {
      CertificateAuthority.load(plan.caDir().resolve(CertificateAuthority.KEY_FILE))
          .issue(Identity.server(id, role), SERVER_VALIDITY, List.of(plan.host(id)))
          .write(file);
    }
    return file;
  }

  /** Creates what the plan's cluster lacks; returns whether anything was created. */
  public static boolean ensure(ClusterPlan plan) throws IOException {
    boolean created = false;
    CertificateAuthority ca;
    if (CertificateAuthority.existsIn(plan.caDir())) {
      ca = CertificateAuthority.load(plan.caDir().resolve(CertificateAuthority.KEY_FILE));
    } else {
      Files.createDirectories(plan.caDir());
      ca = CertificateAuthority.create(plan.caDir(), plan.dir().getFileName().toString());
      created = true;
    }
    for (Map.Entry<String, Identity.Role> s : plan.serverRoles().entrySet()) {
      Path file = plan.credentialsFile(s.getKey());
      if (!Files.exists(file)) {
        ca.issue(
                Identity.server(s.getKey(), s.getValue()),
                SERVER_VALIDITY,
                List.of(plan.host(s.getKey())))
            .write(file);
        created = true;
      }
    }
    if (!Files.exists(plan.adminCredentials())) {
      Owner me = Owner.process(); // the administrator's files are the starting user's
      ca.issue(
              Identity.user(ADMIN, me.uid(), me.gid(), List.of(), true), SERVER_VALIDITY, List.of())
          .write(plan.adminCredentials());
      created = true;
    }
    return created;
  }
}
