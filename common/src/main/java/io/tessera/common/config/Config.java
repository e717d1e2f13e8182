package io.tessera.common.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Settings from (highest first) explicit overrides, {@code -Dtessera.*} system properties, a
 * properties file, then each key's default. Values are parsed and checked when read, so a bad value
 * is reported with its key.
 */
public final class Config {
  private final Map<String, String> values;

  private Config(Map<String, String> values) {
    this.values = values;
  }

  public static Config defaults() {
    return load(Map.of(), Map.of());
  }

  public static Config of(Map<String, String> overrides) {
    return load(Map.of(), overrides);
  }

  /** Loads a properties file (may be null) under system properties and overrides. */
  public static Config load(Path file, Map<String, String> overrides) {
    return load(file == null ? Map.of() : fileSettings(file), overrides);
  }

  /**
   * Settings from {@code base} (a file's), then {@code tessera.*} system properties, then {@code
   * overrides}, each winning over the one before.
   */
  public static Config load(Map<String, String> base, Map<String, String> overrides) {
    Map<String, String> v = new HashMap<>(base);
    System.getProperties()
        .forEach(
            (k, val) -> {
              if (k.toString().startsWith("tessera.")) {
                v.put(k.toString(), val.toString());
              }
            });
    v.putAll(overrides);
    return new Config(v);
  }

  /** The settings a properties file holds. */
  public static Map<String, String> fileSettings(Path file) {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file)) {
      p.load(r);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "cannot read configuration file " + file + ": " + e.getMessage());
    }
    Map<String, String> v = new HashMap<>();
    p.forEach((k, val) -> v.put(k.toString(), val.toString()));
    return v;
  }

  public <T> T get(ConfigKey<T> key) {
    String raw = values.get(key.key());
    if (raw == null) {
      return key.defaultValue();
    }
    try {
      return key.parser().apply(raw);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "configuration "
              + key.key()
              + "="
              + raw
              + ": "
              + e.getMessage()
              + " ("
              + key.doc()
              + ")");
    }
  }

  /**
   * Parses every value given for {@code keys} now, so a bad one stops a process before it starts
   * anything; the error names every bad key with its value and what the key does.
   */
  public void requireValid(Collection<ConfigKey<?>> keys) {
    List<String> problems = new ArrayList<>();
    for (ConfigKey<?> key : keys) {
      try {
        get(key);
      } catch (IllegalArgumentException e) {
        problems.add(e.getMessage());
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
  }

  /** A copy with one more setting. */
  public Config with(ConfigKey<?> key, String value) {
    Map<String, String> v = new HashMap<>(values);
    v.put(key.key(), value);
    return new Config(v);
  }
}
