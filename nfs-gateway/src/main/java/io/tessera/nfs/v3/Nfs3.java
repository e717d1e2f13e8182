package io.tessera.nfs.v3;

/** Numbers of the NFS version 3 protocol (RFC 1813): program, procedures and enumerations. */
public final class Nfs3 {
  private Nfs3() {}

  public static final int PROGRAM = 100003;
  public static final int VERSION = 3;

  /** Procedures, in RFC 1813's order. */
  public static final int NULL = 0;

  public static final int GETATTR = 1;
  public static final int SETATTR = 2;
  public static final int LOOKUP = 3;
  public static final int ACCESS = 4;
  public static final int READLINK = 5;
  public static final int READ = 6;
  public static final int WRITE = 7;
  public static final int CREATE = 8;
  public static final int MKDIR = 9;
  public static final int SYMLINK = 10;
  public static final int MKNOD = 11;
  public static final int REMOVE = 12;
  public static final int RMDIR = 13;
  public static final int RENAME = 14;
  public static final int LINK = 15;
  public static final int READDIR = 16;
  public static final int READDIRPLUS = 17;
  public static final int FSSTAT = 18;
  public static final int FSINFO = 19;
  public static final int PATHCONF = 20;
  public static final int COMMIT = 21;

  /** nfsstat3. */
  public static final int OK = 0;

  public static final int ERR_PERM = 1;
  public static final int ERR_NOENT = 2;
  public static final int ERR_IO = 5;
  public static final int ERR_ACCES = 13;
  public static final int ERR_EXIST = 17;
  public static final int ERR_XDEV = 18;
  public static final int ERR_NOTDIR = 20;
  public static final int ERR_ISDIR = 21;
  public static final int ERR_INVAL = 22;
  public static final int ERR_FBIG = 27;
  public static final int ERR_NOSPC = 28;
  public static final int ERR_ROFS = 30;
  public static final int ERR_NAMETOOLONG = 63;
  public static final int ERR_NOTEMPTY = 66;
  public static final int ERR_STALE = 70;
  public static final int ERR_BADHANDLE = 10001;
  public static final int ERR_NOT_SYNC = 10002;
  public static final int ERR_BAD_COOKIE = 10003;
  public static final int ERR_NOTSUPP = 10004;
  public static final int ERR_TOOSMALL = 10005;
  public static final int ERR_SERVERFAULT = 10006;
  public static final int ERR_JUKEBOX = 10008;

  /** ftype3. */
  public static final int REG = 1;

  public static final int DIR = 2;

  /** stable_how. */
  public static final int UNSTABLE = 0;

  public static final int DATA_SYNC = 1;
  public static final int FILE_SYNC = 2;

  /** createmode3. */
  public static final int UNCHECKED = 0;

  public static final int GUARDED = 1;
  public static final int EXCLUSIVE = 2;

  /** ACCESS3 bits. */
  public static final int ACCESS_READ = 0x01;

  public static final int ACCESS_LOOKUP = 0x02;
  public static final int ACCESS_MODIFY = 0x04;
  public static final int ACCESS_EXTEND = 0x08;
  public static final int ACCESS_DELETE = 0x10;
  public static final int ACCESS_EXECUTE = 0x20;

  /** time_how. */
  public static final int DONT_CHANGE = 0;

  public static final int SET_TO_SERVER_TIME = 1;
  public static final int SET_TO_CLIENT_TIME = 2;

  /** Limits of the protocol. */
  public static final int MAX_HANDLE = 64;

  public static final int MAX_NAME = 255;
  public static final int MAX_PATH = 1024;
}
