package io.tessera.common.config;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * One configuration setting: its full key (greppable), typed default, one-line doc and parser. Keys
 * are declared in one {@code XxxConfigKeys} class per module.
 */
public record ConfigKey<T>(String key, T defaultValue, String doc, Function<String, T> parser) {

  public static ConfigKey<Long> size(String key, long defaultBytes, String doc) {
    return new ConfigKey<>(key, defaultBytes, doc, DataSize::parse);
  }

  /** A duration; a negative one is refused. */
  public static ConfigKey<Duration> duration(String key, Duration def, String doc) {
    return new ConfigKey<>(
        key,
        def,
        doc,
        s -> {
          Duration d = Durations.parse(s);
          if (d.isNegative()) {
            throw new IllegalArgumentException("'" + s + "' is negative; a duration is 0 or more");
          }
          return d;
        });
  }

  public static ConfigKey<Integer> integer(String key, int def, String doc) {
    return integer(key, def, Integer.MIN_VALUE, doc);
  }

  /** A whole number of at least {@code min}. */
  public static ConfigKey<Integer> integer(String key, int def, int min, String doc) {
    return new ConfigKey<>(
        key,
        def,
        doc,
        s -> {
          int v;
          try {
            v = Integer.parseInt(s.trim());
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + s + "' is not a whole number");
          }
          if (v < min) {
            throw new IllegalArgumentException(
                "'" + s + "' is below " + min + ", the least it may be");
          }
          return v;
        });
  }

  /** A share in percent, 1 to 100 ({@code 30} or {@code 30%}). */
  public static ConfigKey<Integer> percent(String key, int def, String doc) {
    return new ConfigKey<>(
        key,
        def,
        doc,
        s -> {
          String t = s.trim();
          t = t.endsWith("%") ? t.substring(0, t.length() - 1).trim() : t;
          int p;
          try {
            p = Integer.parseInt(t);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                "'" + s + "' is not a percentage (write e.g. 30 or 30%)");
          }
          if (p < 1 || p > 100) {
            throw new IllegalArgumentException("'" + s + "' is not between 1% and 100%");
          }
          return p;
        });
  }

  public static ConfigKey<String> string(String key, String def, String doc) {
    return new ConfigKey<>(key, def, doc, String::trim);
  }

  /** One of a few words ({@code choices}); anything else is refused, naming them. */
  public static ConfigKey<String> choice(String key, String def, String doc, List<String> choices) {
    return new ConfigKey<>(
        key,
        def,
        doc,
        s -> {
          String t = s.trim().toLowerCase(Locale.ROOT);
          if (!choices.contains(t)) {
            throw new IllegalArgumentException(
                "'" + s + "' is not one of " + String.join(", ", choices));
          }
          return t;
        });
  }

  public static ConfigKey<Boolean> bool(String key, boolean def, String doc) {
    return new ConfigKey<>(
        key,
        def,
        doc,
        s ->
            switch (s.trim().toLowerCase(Locale.ROOT)) {
              case "true", "yes", "on" -> true;
              case "false", "no", "off" -> false;
              default -> throw new IllegalArgumentException("'" + s + "' is not true or false");
            });
  }

  /** The default as a user would write it (sizes as 8M, durations as 30s). */
  public String describeDefault() {
    if (defaultValue instanceof Duration d) {
      return Durations.format(d);
    }
    if (defaultValue instanceof Long bytes) { // every Long setting is a size (see size())
      return DataSize.formatExact(bytes);
    }
    return String.valueOf(defaultValue);
  }
}
