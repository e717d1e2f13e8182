package io.tessera.common.config;

import java.util.Locale;

/** Byte counts as people write them: 4096, 64K, 64KiB, 1M, 1MiB, 2G (all powers of 1024). */
public final class DataSize {
  private DataSize() {}

  public static long parse(String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException(
          "empty size: expected a number with an optional K, M, G or T suffix");
    }
    String s = text.trim().toUpperCase(Locale.ROOT).replace("IB", "").replace("B", "");
    long mult = 1;
    char last = s.charAt(s.length() - 1);
    switch (last) {
      case 'K' -> mult = 1L << 10;
      case 'M' -> mult = 1L << 20;
      case 'G' -> mult = 1L << 30;
      case 'T' -> mult = 1L << 40;
      default -> {}
    }
    if (mult != 1) {
      s = s.substring(0, s.length() - 1).trim();
    }
    try {
      long v = Long.parseLong(s);
      if (v < 0) {
        throw new NumberFormatException();
      }
      return Math.multiplyExact(v, mult);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new IllegalArgumentException("'" + text + "' is not a size such as 4096, 64K or 1M");
    }
  }

  /** The shortest form {@link #parse} reads back exactly: 8M, 64K, 4097. */
  public static String formatExact(long bytes) {
    String units = "TGMK";
    for (int i = 0; i < units.length(); i++) {
      long scale = 1L << (10 * (units.length() - i));
      if (bytes != 0 && bytes % scale == 0) {
        return bytes / scale + units.substring(i, i + 1);
      }
    }
    return String.valueOf(bytes);
  }

  public static String format(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int i = 0;
    while (v >= 1024 && i < units.length - 1) {
      v /= 1024;
      i++;
    }
    return (v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v))
        + " "
        + units[i];
  }
}
