package io.tessera.cli.fs;

/**
 * Names as human output shows them: control characters and backslashes escaped as GNU {@code ls -b}
 * does ({@code \n}, {@code \t}, {@code \\}, other control bytes as {@code \ooo}), so one entry is
 * always one line. {@code --json} output keeps names exact.
 */
final class Names {
  private Names() {}

  static String escaped(String name) {
    StringBuilder b = null;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      String esc =
          switch (c) {
            case '\n' -> "\\n";
            case '\t' -> "\\t";
            case '\r' -> "\\r";
            case '\\' -> "\\\\";
            default -> c < 0x20 || c == 0x7f ? String.format("\\%03o", (int) c) : null;
          };
      if (esc != null && b == null) {
        b = new StringBuilder(name.length() + 8).append(name, 0, i);
      }
      if (b != null) {
        if (esc != null) {
          b.append(esc);
        } else {
          b.append(c);
        }
      }
    }
    return b == null ? name : b.toString();
  }
}
