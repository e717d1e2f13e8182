package io.tessera.client;

import com.sun.security.auth.module.UnixSystem;

/**
 * Who owns a file: a numeric user and group, as POSIX and NFS (AUTH_UNIX) name them.
 *
 * @param uid the owner's user id
 * @param gid the owner's group id
 */
public record Owner(int uid, int gid) {
  private static final Owner PROCESS = ofProcess();

  /** The identity this process runs as (0, 0 where the platform has no numeric ids). */
  public static Owner process() {
    return PROCESS;
  }

  private static Owner ofProcess() {
    try {
      UnixSystem u = new UnixSystem();
      return new Owner((int) u.getUid(), (int) u.getGid());
    } catch (UnsatisfiedLinkError | RuntimeException e) {
      return new Owner(0, 0);
    }
  }
}
