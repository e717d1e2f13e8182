package io.tessera.meta.state;

import io.tessera.common.proto.FileTypeProto;
import io.tessera.common.proto.InodeProto;
import io.tessera.common.proto.StatusProto;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Turns absolute paths into inodes, checking every component. */
public final class PathResolver {
  public static final int MAX_PATH_BYTES = 4096;
  public static final int MAX_NAME_BYTES = 255;

  /** Reserved at the root for read-only snapshot views. */
  public static final String SNAPSHOT_DIR = ".snapshots";

  private PathResolver() {}

  /**
   * Where a path leads: its parent directory, its last name, the inode if it exists, and the ids of
   * every directory on the way (root first).
   */
  public record Resolved(long parentId, String name, InodeProto inode, List<Long> ancestors) {
    public boolean exists() {
      return inode != null;
    }

    public boolean isRoot() {
      return parentId == 0;
    }
  }

  public static List<String> components(String path) {
    if (path == null || !path.startsWith("/")) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "path '" + shown(path) + "' must be absolute (start with /)");
    }
    if (path.getBytes(StandardCharsets.UTF_8).length > MAX_PATH_BYTES) {
      throw new NamespaceException(
          StatusProto.INVALID_ARGUMENT,
          "path '" + shown(path) + "' is longer than " + MAX_PATH_BYTES + " bytes");
    }
    List<String> out = new ArrayList<>();
    for (String c : path.split("/")) {
      if (c.isEmpty()) {
        continue;
      }
      if (c.equals(".") || c.equals("..")) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT,
            "path '"
                + shown(path)
                + "' has a '"
                + c
                + "' component; give a normalised absolute path");
      }
      int bytes = c.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > MAX_NAME_BYTES) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT,
            "name '" + shown(c) + "' is " + bytes + " bytes long; at most " + MAX_NAME_BYTES);
      }
      if (c.indexOf('\0') >= 0) {
        throw new NamespaceException(
            StatusProto.INVALID_ARGUMENT, "name '" + shown(c) + "' contains a NUL byte");
      }
      out.add(c);
    }
    return out;
  }

  public static Resolved resolve(NamespaceView ns, String path) {
    List<String> parts = components(path);
    List<Long> ancestors = new ArrayList<>();
    long dir = NamespaceView.ROOT_ID;
    if (parts.isEmpty()) {
      return new Resolved(0, "", ns.inode(NamespaceView.ROOT_ID), ancestors);
    }
    ancestors.add(dir);
    StringBuilder walked = new StringBuilder();
    for (int i = 0; i < parts.size() - 1; i++) {
      walked.append('/').append(parts.get(i));
      long next = ns.child(dir, parts.get(i));
      if (next == 0) {
        throw new NamespaceException(
            StatusProto.NOT_FOUND,
            "no such file or directory: " + path + " (" + walked + " does not exist)");
      }
      InodeProto in = ns.inode(next);
      if (in == null || in.getType() != FileTypeProto.DIRECTORY) {
        throw new NamespaceException(
            StatusProto.NOT_DIRECTORY, path + ": " + walked + " is not a directory");
      }
      dir = next;
      ancestors.add(dir);
    }
    String name = parts.get(parts.size() - 1);
    long id = ns.child(dir, name);
    return new Resolved(dir, name, id == 0 ? null : ns.inode(id), ancestors);
  }

  /**
   * The path of an inode from the parents its inodes record: "" when one of them records none
   * (written before parents were) or the chain does not reach the root.
   */
  public static String pathOf(NamespaceView ns, InodeProto in) {
    if (in.getId() == NamespaceView.ROOT_ID) {
      return "/";
    }
    List<String> names = new ArrayList<>();
    InodeProto at = in;
    while (at.getId() != NamespaceView.ROOT_ID) {
      if (at.getParentId() == 0
          || names.size() > MAX_PATH_BYTES / 2
          || ns.child(at.getParentId(), at.getName()) != at.getId()) {
        return "";
      }
      names.add(at.getName());
      at = ns.inode(at.getParentId());
      if (at == null) {
        return "";
      }
    }
    StringBuilder p = new StringBuilder();
    for (int i = names.size() - 1; i >= 0; i--) {
      p.append('/').append(names.get(i));
    }
    return p.toString();
  }

  /** Most characters of a bad name or path an error message repeats. */
  private static final int SHOWN = 60;

  /** A name or path as an error message shows it: cut short when long, NUL bytes as '?'. */
  static String shown(String text) {
    if (text == null) {
      return "null";
    }
    String t = text.replace('\0', '?');
    return t.length() <= SHOWN ? t : t.substring(0, SHOWN) + "... (" + t.length() + " characters)";
  }

  /** Whether a path lies under /.snapshots, where nothing may change. */
  public static boolean isSnapshotPath(String path) {
    return path != null
        && (path.equals("/" + SNAPSHOT_DIR) || path.startsWith("/" + SNAPSHOT_DIR + "/"));
  }

  /** Refuses names that only the system may create. */
  public static void checkCreatable(Resolved r, String path) {
    if (r.isRoot()) {
      throw new NamespaceException(StatusProto.EXISTS, "/ always exists");
    }
    if (r.parentId() == NamespaceView.ROOT_ID && r.name().equals(SNAPSHOT_DIR)) {
      throw new NamespaceException(
          StatusProto.READ_ONLY, "/" + SNAPSHOT_DIR + " is reserved for snapshots and read-only");
    }
  }
}
