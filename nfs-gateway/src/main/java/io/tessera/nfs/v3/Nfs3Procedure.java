package io.tessera.nfs.v3;

/** The NFSv3 procedures in number order (RFC 1813 section 3.3): metrics label them by name. */
public enum Nfs3Procedure {
  NULL,
  GETATTR,
  SETATTR,
  LOOKUP,
  ACCESS,
  READLINK,
  READ,
  WRITE,
  CREATE,
  MKDIR,
  SYMLINK,
  MKNOD,
  REMOVE,
  RMDIR,
  RENAME,
  LINK,
  READDIR,
  READDIRPLUS,
  FSSTAT,
  FSINFO,
  PATHCONF,
  COMMIT;

  private static final Nfs3Procedure[] BY_NUMBER = values();

  /** The procedure with this number, or null. */
  static Nfs3Procedure of(int number) {
    return number >= 0 && number < BY_NUMBER.length ? BY_NUMBER[number] : null;
  }
}
