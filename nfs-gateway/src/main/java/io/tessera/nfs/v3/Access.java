package io.tessera.nfs.v3;

import io.tessera.client.FileStatus;
import io.tessera.nfs.oncrpc.UnixCredential;

/**
 * POSIX permission checks from AUTH_UNIX credentials (after squashing): the owner's, group's or
 * others' bits decide; root may do anything but execute a file no one may execute.
 */
public final class Access {
  private static final int R = 4;
  private static final int W = 2;
  private static final int X = 1;

  private Access() {}

  /** The ACCESS3 bits of {@code wanted} that the caller has on the node. */
  public static int allowed(UnixCredential who, Node n, int wanted) {
    int bits = bits(who, n.status());
    int out = 0;
    if ((bits & R) != 0) {
      out |= Nfs3.ACCESS_READ;
    }
    if ((bits & X) != 0) {
      out |= n.directory() ? Nfs3.ACCESS_LOOKUP : Nfs3.ACCESS_EXECUTE;
    }
    if ((bits & W) != 0 && !n.readOnly()) {
      out |= Nfs3.ACCESS_MODIFY | Nfs3.ACCESS_EXTEND | (n.directory() ? Nfs3.ACCESS_DELETE : 0);
    }
    return out & wanted;
  }

  /** Refuses the call unless the caller has every one of {@code wanted}. */
  public static void require(UnixCredential who, Node n, int wanted) throws NfsError {
    if (n.readOnly()
        && (wanted & (Nfs3.ACCESS_MODIFY | Nfs3.ACCESS_EXTEND | Nfs3.ACCESS_DELETE)) != 0) {
      throw new NfsError(Nfs3.ERR_ROFS, n.path() + " is in a snapshot: read-only");
    }
    if (allowed(who, n, wanted) != wanted) {
      throw new NfsError(Nfs3.ERR_ACCES, "uid " + who.uid() + " may not do that to " + n.path());
    }
  }

  /** Whether the caller owns the node (or is root): chmod, utimes and owner override. */
  public static boolean owns(UnixCredential who, Node n) {
    return who.uid() == 0 || who.uid() == n.status().owner().uid();
  }

  private static int bits(UnixCredential who, FileStatus s) {
    int mode = s.mode();
    if (who.uid() == 0) {
      boolean anyX = (mode & 0111) != 0 || s.directory();
      return R | W | (anyX ? X : 0);
    }
    if (who.uid() == s.owner().uid()) {
      return (mode >> 6) & 7;
    }
    if (who.inGroup(s.owner().gid())) {
      return (mode >> 3) & 7;
    }
    return mode & 7;
  }
}
