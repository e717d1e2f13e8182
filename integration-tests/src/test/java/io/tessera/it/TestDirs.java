package io.tessera.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Cluster directories under target/, kept after a run so a failure's server logs can be read. */
public final class TestDirs {
  private TestDirs() {}

  public static Path fresh(String name) {
    Path dir = Path.of("target", "clusters", name).toAbsolutePath();
    try {
      if (Files.exists(dir)) {
        try (Stream<Path> all = Files.walk(dir)) {
          all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir;
  }
}
