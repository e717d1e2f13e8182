package io.tessera.meta.state;

import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.AccessTokens;

/**
 * POSIX permission checks of namespace requests, as every replica applies them (deterministic: they
 * read only the request's actor and the namespace). Search (x) on every directory of a path, write
 * and search on the directory an entry is added to or removed from, the sticky bit, owner-only mode
 * changes, superuser-only owner changes; root and admins pass every check.
 */
public final class Permissions {
  public static final int READ = 4;
  public static final int WRITE = 2;
  public static final int SEARCH = 1;

  private static final int STICKY = 01000;
  private static final int SETGID = 02000;

  private Permissions() {}

  /** Whether {@code a} has every one of {@code bits} on {@code in} by its mode. */
  public static boolean allows(Actor a, InodeProto in, int bits) {
    if (a.superuser()) {
      return true;
    }
    int mode = in.getMode();
    int granted;
    if (a.uid() == in.getUid()) {
      granted = (mode >> 6) & 7;
    } else if (a.inGroup(in.getGid())) {
      granted = (mode >> 3) & 7;
    } else {
      granted = mode & 7;
    }
    return (granted & bits) == bits;
  }

  /** Refuses unless {@code a} has {@code bits} on {@code in}, naming {@code path}. */
  public static void require(Actor a, InodeProto in, int bits, String path) {
    if (!allows(a, in, bits)) {
      throw denied(a, "may not " + verb(bits) + " " + path + described(in));
    }
  }

  /** Search permission on every directory a resolved path passed through. */
  public static void requireSearch(NamespaceView ns, Actor a, PathResolver.Resolved r) {
    if (a.superuser()) {
      return;
    }
    for (long dir : r.ancestors()) {
      InodeProto in = ns.inode(dir);
      if (in != null && !allows(a, in, SEARCH)) {
        throw denied(a, "may not search " + PathResolver.pathOf(ns, in) + described(in));
      }
    }
  }

  /** Refuses any change by an actor that only looks. */
  public static void requireChanging(Actor a) {
    if (a.readOnly()) {
      throw denied(a, "only looks (a read-only console token): it changes nothing");
    }
  }

  /**
   * Adding or removing an entry of directory {@code dir}: write and search on it; removing {@code
   * victim} from a sticky directory also takes owning the directory or the entry.
   */
  public static void requireEntryChange(
      Actor a, InodeProto dir, InodeProto victim, String dirPath, String victimPath) {
    requireChanging(a);
    require(a, dir, WRITE | SEARCH, dirPath);
    if (victim != null
        && (dir.getMode() & STICKY) != 0
        && !a.superuser()
        && a.uid() != dir.getUid()
        && a.uid() != victim.getUid()) {
      throw denied(
          a,
          "may not remove or replace "
              + victimPath
              + ": "
              + dirPath
              + " is sticky and the entry is another user's");
    }
  }

  /** The owner or a superuser: mode changes, default layouts of a directory. */
  public static void requireOwner(Actor a, InodeProto in, String path, String doing) {
    requireChanging(a);
    if (!a.superuser() && a.uid() != in.getUid()) {
      throw denied(
          a, "may not " + doing + " " + path + ": only its owner" + described(in) + " may");
    }
  }

  /** Owner changes: superusers only; group changes: the owner, to a group of its own. */
  public static void requireOwnerChange(
      Actor a, InodeProto in, Integer uid, Integer gid, String path) {
    requireChanging(a);
    if (a.superuser()) {
      return;
    }
    if (uid != null && uid != in.getUid()) {
      throw denied(a, "may not give " + path + " to another user: only root or an admin may");
    }
    if (gid != null && gid != in.getGid() && (a.uid() != in.getUid() || !a.inGroup(gid))) {
      throw denied(
          a,
          "may not change the group of "
              + path
              + " to "
              + Integer.toUnsignedString(gid)
              + ": only its owner, to a group the owner is in, or root");
    }
  }

  /** Admin-only requests: snapshots, QoS, decommissioning, console tokens, credentials. */
  public static void requireAdmin(Actor a, String what) {
    if (!a.admin()) {
      throw denied(a, "may not " + what + ": only admins may (tessera credentials issue --admin)");
    }
  }

  /**
   * Stamps a new entry of {@code dir} with its owner: the actor, in its own group or in the
   * directory's when that is set-group-id. A superuser gets the owner it asks for ({@code uid},
   * {@code gid}), as a chown could give it anyway: an admin restoring files, a root process.
   */
  public static InodeProto.Builder owned(
      InodeProto.Builder entry, Actor a, InodeProto dir, int uid, int gid) {
    if (a.superuser()) {
      return entry.setUid(uid).setGid(gid);
    }
    return entry.setUid(a.uid()).setGid((dir.getMode() & SETGID) != 0 ? dir.getGid() : a.gid());
  }

  /** A new directory's mode: set-group-id passes down, so a shared tree keeps its group. */
  public static int newDirectoryMode(InodeProto parent, int mode) {
    return (mode & 07777) | (parent.getMode() & SETGID);
  }

  /** The access-token rights the actor's mode bits give it on a regular file. */
  public static int tokenRights(Actor a, InodeProto in) {
    int rights = 0;
    if (allows(a, in, READ)) {
      rights |= AccessTokens.READ;
    }
    if (!a.readOnly() && !in.getInSnapshot() && allows(a, in, WRITE)) {
      rights |= AccessTokens.WRITE;
    }
    return rights;
  }

  private static NamespaceException denied(Actor a, String what) {
    return new NamespaceException(
        StatusProto.PERMISSION_DENIED, "permission denied: " + a.describe() + " " + what);
  }

  private static String described(InodeProto in) {
    return " (owner "
        + Integer.toUnsignedString(in.getUid())
        + ":"
        + Integer.toUnsignedString(in.getGid())
        + ", mode "
        + String.format("%04o", in.getMode() & 07777)
        + ")";
  }

  private static String verb(int bits) {
    if ((bits & WRITE) != 0) {
      return "write in";
    }
    return (bits & READ) != 0 ? "read" : "search";
  }
}
