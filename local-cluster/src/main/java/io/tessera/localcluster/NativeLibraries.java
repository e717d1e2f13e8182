package io.tessera.localcluster;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.rocksdb.util.Environment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RocksDB's JNI library, unpacked once for every server JVM. RocksDB ships the library (17 MB)
 * inside its jar, and a JVM whose library path lacks it unpacks it to a temporary file at every
 * start before it opens a store: every server, and every restart of a killed one, on a machine
 * whose cores the survivors' foreground I/O needs. The copy lives in {@code native/<jar name>/}
 * next to the distribution's jars; where it cannot be written, servers load the library RocksDB's
 * own way (and remove their temporary copy once loaded: {@code UnpackedLibraries}).
 */
final class NativeLibraries {
  private static final Logger LOG = LoggerFactory.getLogger(NativeLibraries.class);

  private NativeLibraries() {}

  /**
   * JVM options that let a server with {@code classPath} load RocksDB's library without unpacking
   * it; may be none.
   */
  static List<String> options(String classPath) {
    List<Path> jars = StartupCaches.jars(classPath);
    Path rocksJar =
        jars.stream()
            .filter(j -> j.getFileName().toString().startsWith("rocksdbjni"))
            .findFirst()
            .orElse(null);
    Path cache = rocksJar == null ? null : StartupCaches.dir(jars, "native");
    if (cache == null) {
      return List.of();
    }
    String fileName = Environment.getJniLibraryFileName("rocksdb");
    Path dir = cache.resolve(rocksJar.getFileName().toString().replaceFirst("\\.jar$", ""));
    try {
      if (!unpacked(rocksJar, fileName, dir)) {
        return List.of();
      }
    } catch (IOException e) {
      LOG.debug(
          "RocksDB's library not unpacked to {}: {}; servers unpack it at each start",
          dir,
          e.getMessage());
      return List.of();
    }
    String inherited = System.getProperty("java.library.path", "");
    return List.of(
        "-Djava.library.path=" + dir + (inherited.isEmpty() ? "" : File.pathSeparator + inherited));
  }

  /**
   * Whether {@code dir} holds the jar's {@code fileName} now (unpacked by this call or an earlier
   * one).
   */
  static boolean unpacked(Path jar, String fileName, Path dir) throws IOException {
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      ZipEntry entry = zip.getEntry(fileName);
      if (entry == null) {
        return false; // a platform the jar has no library for: RocksDB says so itself when a server
        // opens a store
      }
      Path target = dir.resolve(fileName);
      if (Files.isRegularFile(target) && Files.size(target) == entry.getSize()) {
        return true;
      }
      Files.createDirectories(dir);
      Path part = Files.createTempFile(dir, fileName, ".part");
      try {
        try (InputStream in = zip.getInputStream(entry)) {
          Files.copy(in, part, StandardCopyOption.REPLACE_EXISTING);
        }
        // another cluster started from the same jars may be unpacking it too: either copy is whole
        Files.move(
            part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } finally {
        Files.deleteIfExists(part);
      }
      return true;
    }
  }
}
