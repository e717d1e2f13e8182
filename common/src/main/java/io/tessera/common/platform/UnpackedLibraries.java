package io.tessera.common.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Native libraries a jar unpacks into the temporary directory each time a process starts and
 * removes only when the JVM exits cleanly. RocksJava does this: every server stopped with SIGKILL
 * left its copy behind in /tmp. Once loaded, a library no longer needs its name (the mapping keeps
 * the file alive), so the copy is removed right away.
 */
public final class UnpackedLibraries {
  private UnpackedLibraries() {}

  /**
   * Removes the files in {@code directories} whose name starts with {@code prefix} and that this
   * process has mapped (the copies it loaded); does nothing where {@code /proc/self/maps} is
   * absent.
   *
   * @return the copies removed
   */
  public static List<Path> removeLoadedCopies(String prefix, List<Path> directories) {
    List<Path> removed = new ArrayList<>();
    for (Path file : mappedFiles()) {
      Path name = file.getFileName();
      if (name == null
          || !name.toString().startsWith(prefix)
          || removed.contains(file)
          || directories.stream()
              .noneMatch(d -> d.toAbsolutePath().normalize().equals(file.getParent()))) {
        continue;
      }
      try {
        if (Files.deleteIfExists(file)) {
          removed.add(file);
        }
      } catch (IOException | SecurityException e) {
        // left for the JVM's own delete at exit
      }
    }
    return removed;
  }

  /**
   * The file behind each of this process's file mappings, one entry per mapping (a file mapped
   * twice appears twice; one since deleted still appears); empty where {@code /proc/self/maps} is
   * absent.
   */
  public static List<Path> mappedFiles() {
    List<Path> files = new ArrayList<>();
    List<String> maps;
    try {
      maps = Files.readAllLines(Path.of("/proc/self/maps"));
    } catch (IOException | RuntimeException notLinux) {
      return files;
    }
    for (String line : maps) {
      int slash = line.indexOf('/');
      if (slash >= 0) {
        files.add(Path.of(line.substring(slash).replace(" (deleted)", "").trim()));
      }
    }
    return files;
  }

  /**
   * Where RocksJava unpacks its library: {@code ROCKSDB_SHAREDLIB_DIR}, else the JVM's temporary
   * directory.
   */
  public static List<Path> rocksDbUnpackDirectories() {
    List<Path> dirs = new ArrayList<>();
    String shared = System.getenv("ROCKSDB_SHAREDLIB_DIR");
    if (shared != null && !shared.isBlank()) {
      dirs.add(Path.of(shared));
    }
    dirs.add(Path.of(System.getProperty("java.io.tmpdir")));
    return dirs;
  }

  /**
   * Removes this process's unpacked copy of RocksJava's library (call after {@code
   * RocksDB.loadLibrary()}).
   */
  public static void removeRocksDbCopy() {
    removeLoadedCopies("librocksdbjni", rocksDbUnpackDirectories());
  }
}
