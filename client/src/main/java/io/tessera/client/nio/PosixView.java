package io.tessera.client.nio;

import static io.tessera.client.nio.TesseraFileSystemProvider.call;
import static io.tessera.client.nio.TesseraFileSystemProvider.files;
import static io.tessera.client.nio.TesseraFileSystemProvider.path;

import io.tessera.client.AttributeChange;
import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalNotFoundException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Basic and POSIX attributes of one path, read and changed through the cluster, by view or by name
 * ({@code "posix:permissions"}, {@code "size,isDirectory"}).
 */
final class PosixView implements PosixFileAttributeView {
  private final Path p;

  PosixView(Path p) {
    this.p = p;
  }

  @Override
  public String name() {
    return "posix";
  }

  @Override
  public PosixFileAttributes readAttributes() throws IOException {
    return new TesseraFileAttributes(call(files(p).stat(path(p).clusterPath()), p));
  }

  /** {@code [view:]name,name,...} or {@code [view:]*}, views basic and posix. */
  Map<String, Object> readByName(String attributes) throws IOException {
    int colon = attributes.indexOf(':');
    String view = colon >= 0 ? attributes.substring(0, colon) : "basic";
    String names = attributes.substring(colon + 1);
    if (!view.equals("basic") && !view.equals("posix")) {
      throw new UnsupportedOperationException("no attribute view '" + view + "'");
    }
    PosixFileAttributes a = readAttributes();
    Map<String, Object> all = new LinkedHashMap<>();
    all.put("lastModifiedTime", a.lastModifiedTime());
    all.put("lastAccessTime", a.lastAccessTime());
    all.put("creationTime", a.creationTime());
    all.put("size", a.size());
    all.put("isRegularFile", a.isRegularFile());
    all.put("isDirectory", a.isDirectory());
    all.put("isSymbolicLink", false);
    all.put("isOther", false);
    all.put("fileKey", a.fileKey());
    if (view.equals("posix")) {
      all.put("owner", a.owner());
      all.put("group", a.group());
      all.put("permissions", a.permissions());
    }
    if (names.equals("*")) {
      return all;
    }
    Map<String, Object> out = new LinkedHashMap<>();
    for (String n : names.split(",")) {
      if (!all.containsKey(n)) {
        throw new IllegalArgumentException("no attribute '" + n + "' in view " + view);
      }
      out.put(n, all.get(n));
    }
    return out;
  }

  /** Sets {@code [view:]name}: lastModifiedTime, permissions, owner or group. */
  void setByName(String attribute, Object value) throws IOException {
    String name = attribute.substring(attribute.indexOf(':') + 1);
    switch (name) {
      case "lastModifiedTime" -> setTimes((FileTime) value, null, null);
      case "permissions" -> {
        @SuppressWarnings("unchecked")
        Set<PosixFilePermission> perms = (Set<PosixFilePermission>) value;
        setPermissions(perms);
      }
      case "owner" -> setOwner((UserPrincipal) value);
      case "group" -> setGroup((GroupPrincipal) value);
      default -> throw new UnsupportedOperationException("cannot set '" + attribute + "'");
    }
  }

  /** Sets the modification time; access and creation times are not kept. */
  @Override
  public void setTimes(FileTime lastModifiedTime, FileTime lastAccessTime, FileTime createTime)
      throws IOException {
    if (lastModifiedTime != null) {
      change(AttributeChange.modified(lastModifiedTime.toInstant()));
    }
  }

  @Override
  public void setPermissions(Set<PosixFilePermission> perms) throws IOException {
    change(AttributeChange.mode(TesseraFileAttributes.mode(perms)));
  }

  @Override
  public void setGroup(GroupPrincipal group) throws IOException {
    change(AttributeChange.owner(null, id(group)));
  }

  @Override
  public UserPrincipal getOwner() throws IOException {
    return readAttributes().owner();
  }

  @Override
  public void setOwner(UserPrincipal owner) throws IOException {
    change(AttributeChange.owner(id(owner), null));
  }

  /** Owners are numeric: a principal of another file system must be named by its uid or gid. */
  private static int id(UserPrincipal who) throws UserPrincipalNotFoundException {
    if (who instanceof TesseraFileAttributes.NumericPrincipal n) {
      return n.id();
    }
    try {
      return Integer.parseInt(who.getName());
    } catch (NumberFormatException e) {
      throw new UserPrincipalNotFoundException(who.getName());
    }
  }

  private void change(AttributeChange c) throws IOException {
    call(files(p).changeAttributes(path(p).clusterPath(), 0, c), p);
  }
}
