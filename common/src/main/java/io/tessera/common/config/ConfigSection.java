package io.tessera.common.config;

import java.util.List;

/** The settings of one subsystem, listed and documented together. */
public record ConfigSection(String title, List<ConfigKey<?>> keys) {
  /** Every key of these sections, in order. */
  public static List<ConfigKey<?>> keysOf(List<ConfigSection> sections) {
    return sections.stream().flatMap(s -> s.keys().stream()).toList();
  }
}
