package io.tessera.common.config;

import java.time.Duration;
import java.util.Locale;

/** Durations as people write them: 500ms, 5s, 2m, 1h (a bare number is milliseconds). */
public final class Durations {
  private Durations() {}

  public static Duration parse(String text) {
    String s = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
    try {
      if (s.endsWith("ms")) {
        return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2).trim()));
      } else if (s.endsWith("s")) {
        return Duration.ofMillis(
            Math.round(Double.parseDouble(s.substring(0, s.length() - 1).trim()) * 1000));
      } else if (s.endsWith("m")) {
        return Duration.ofSeconds(Long.parseLong(s.substring(0, s.length() - 1).trim()) * 60);
      } else if (s.endsWith("h")) {
        return Duration.ofHours(Long.parseLong(s.substring(0, s.length() - 1).trim()));
      }
      return Duration.ofMillis(Long.parseLong(s));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration such as 500ms, 5s or 2m");
    }
  }

  public static String format(Duration d) {
    long ms = d.toMillis();
    return ms % 1000 == 0 ? (ms / 1000) + "s" : ms + "ms";
  }
}
