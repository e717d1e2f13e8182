package io.tessera.nfs.oncrpc;

/**
 * AUTH_UNIX (AUTH_SYS) credentials as the client states them (RFC 5531 appendix A): trusted as far
 * as the export trusts the client's address.
 *
 * @param uid the caller's user id
 * @param gid its primary group
 * @param gids its other groups (at most 16)
 * @param machine the name the client gives itself
 */
public record UnixCredential(int uid, int gid, int[] gids, String machine) {
  static final int FLAVOR = 1;
  private static final int MAX_MACHINE_NAME = 255;
  private static final int MAX_GIDS = 16;

  /** The caller of an AUTH_NONE call: the anonymous user of the export decides. */
  public static final UnixCredential NOBODY = new UnixCredential(-2, -2, new int[0], "");

  static UnixCredential decode(XdrReader body) throws XdrException {
    body.readInt(); // stamp
    String machine = body.readString(MAX_MACHINE_NAME, "AUTH_UNIX machine name");
    int uid = body.readInt();
    int gid = body.readInt();
    int n = body.readCount(MAX_GIDS, "AUTH_UNIX group count");
    int[] gids = new int[n];
    for (int i = 0; i < n; i++) {
      gids[i] = body.readInt();
    }
    return new UnixCredential(uid, gid, gids, machine);
  }

  public boolean inGroup(int group) {
    if (gid == group) {
      return true;
    }
    for (int g : gids) {
      if (g == group) {
        return true;
      }
    }
    return false;
  }

  /** The same caller as another user and group (root and all squashing). */
  public UnixCredential as(int newUid, int newGid) {
    return new UnixCredential(newUid, newGid, new int[0], machine);
  }
}
