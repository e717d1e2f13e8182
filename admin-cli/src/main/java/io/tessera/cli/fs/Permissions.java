package io.tessera.cli.fs;

/** A file's type and mode as {@code ls -l} prints them: {@code -rw-r--r--}, {@code drwxr-xr-x}. */
final class Permissions {
  private static final int SETUID = 04000;
  private static final int SETGID = 02000;
  private static final int STICKY = 01000;

  private Permissions() {}

  static String symbolic(boolean directory, int mode) {
    StringBuilder b = new StringBuilder(10).append(directory ? 'd' : '-');
    triplet(b, mode >> 6, (mode & SETUID) != 0, 's');
    triplet(b, mode >> 3, (mode & SETGID) != 0, 's');
    triplet(b, mode, (mode & STICKY) != 0, 't');
    return b.toString();
  }

  /**
   * rwx of the low three bits; a special bit shows in the x place, lower case when x is set too.
   */
  private static void triplet(StringBuilder b, int bits, boolean special, char specialChar) {
    b.append((bits & 4) != 0 ? 'r' : '-').append((bits & 2) != 0 ? 'w' : '-');
    boolean x = (bits & 1) != 0;
    b.append(special ? (x ? specialChar : Character.toUpperCase(specialChar)) : (x ? 'x' : '-'));
  }
}
