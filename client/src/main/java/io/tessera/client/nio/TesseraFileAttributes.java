package io.tessera.client.nio;

import io.tessera.client.FileStatus;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * A file's attributes as java.nio reads them: owner and group are numeric (the cluster keeps uids
 * and gids), there are no links, access times are not kept (the modification time stands in), and
 * the file key is the inode number.
 */
record TesseraFileAttributes(FileStatus status) implements PosixFileAttributes {
  @Override
  public FileTime lastModifiedTime() {
    return FileTime.from(status.modified());
  }

  @Override
  public FileTime lastAccessTime() {
    return lastModifiedTime();
  }

  @Override
  public FileTime creationTime() {
    return FileTime.from(status.created());
  }

  @Override
  public boolean isRegularFile() {
    return !status.directory();
  }

  @Override
  public boolean isDirectory() {
    return status.directory();
  }

  @Override
  public boolean isSymbolicLink() {
    return false;
  }

  @Override
  public boolean isOther() {
    return false;
  }

  @Override
  public long size() {
    return status.directory() ? 0 : status.size();
  }

  @Override
  public Object fileKey() {
    return status.fileId();
  }

  @Override
  public UserPrincipal owner() {
    return new NumericPrincipal(status.owner().uid(), false);
  }

  @Override
  public GroupPrincipal group() {
    return new NumericPrincipal(status.owner().gid(), true);
  }

  @Override
  public Set<PosixFilePermission> permissions() {
    return permissions(status.mode());
  }

  static Set<PosixFilePermission> permissions(int mode) {
    StringBuilder b = new StringBuilder();
    String rwx = "rwxrwxrwx";
    for (int i = 0; i < 9; i++) {
      b.append((mode & (1 << (8 - i))) != 0 ? rwx.charAt(i) : '-');
    }
    return PosixFilePermissions.fromString(b.toString());
  }

  static int mode(Set<PosixFilePermission> permissions) {
    int mode = 0;
    for (PosixFilePermission p : permissions) {
      mode |= 1 << (8 - p.ordinal());
    }
    return mode;
  }

  /** A uid or gid, by number: the cluster keeps no names. */
  record NumericPrincipal(int id, boolean isGroup) implements GroupPrincipal {
    @Override
    public String getName() {
      return String.valueOf(id);
    }

    @Override
    public String toString() {
      return getName();
    }
  }
}
