package io.tessera.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDB;
import org.rocksdb.util.Environment;

class NativeLibrariesTest {
  @TempDir Path dir;

  /** A distribution's lib/ folder: RocksDB's real jar and another. */
  private String distribution() throws Exception {
    Path lib = Files.createDirectories(dir.resolve("lib"));
    Path rocks = Path.of(RocksDB.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Path copy = Files.copy(rocks, lib.resolve(rocks.getFileName()));
    return Files.write(lib.resolve("tessera.jar"), new byte[] {1}) + File.pathSeparator + copy;
  }

  private static Path libraryDir(List<String> options) {
    String path = options.get(0).substring("-Djava.library.path=".length());
    return Path.of(path.split(File.pathSeparator)[0]);
  }

  /**
   * Starts a JVM that loads RocksDB's library with {@code options} and a temporary directory that
   * is a plain file, so RocksDB's own unpacking cannot work; returns what it printed.
   */
  private String probe(String classPath, List<String> options) throws Exception {
    Path notADirectory = Files.write(dir.resolve("tmp-is-a-file"), new byte[] {0});
    Path probeClasses =
        Path.of(
            RocksLibraryProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> cmd =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:auto",
                "-Djava.io.tmpdir=" + notADirectory));
    cmd.addAll(options);
    cmd.addAll(
        List.of(
            "-cp",
            classPath + File.pathSeparator + probeClasses,
            RocksLibraryProbe.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the probe JVM finished").isTrue();
    return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void serversLoadRocksDbsLibraryUnpackedOnceInsteadOfUnpackingItAtEveryStart() throws Exception {
    String classPath = distribution();
    List<String> options = NativeLibraries.options(classPath);
    assertThat(options).hasSize(1);
    Path unpacked = libraryDir(options).resolve(Environment.getJniLibraryFileName("rocksdb"));
    assertThat(unpacked).isRegularFile().startsWith(dir.resolve("lib").resolve("native"));

    assertThat(probe(classPath, options)).contains("loaded");
    assertThat(probe(classPath, List.of()))
        .as("without the unpacked copy RocksDB needs a temporary directory")
        .contains("Unable to load the RocksDB shared library")
        .doesNotContain("loaded");
  }

  @Test
  void aSecondClusterFromTheSameJarsReusesTheCopyAndATornCopyIsReplaced() throws Exception {
    String classPath = distribution();
    Path unpacked =
        libraryDir(NativeLibraries.options(classPath))
            .resolve(Environment.getJniLibraryFileName("rocksdb"));
    long size = Files.size(unpacked);
    FileTime old = FileTime.fromMillis(1_000_000L);
    Files.setLastModifiedTime(unpacked, old);
    NativeLibraries.options(classPath);
    assertThat(Files.getLastModifiedTime(unpacked)).as("reused, not unpacked again").isEqualTo(old);

    Files.write(unpacked, new byte[] {1, 2, 3}); // what a machine crash during the copy could leave
    NativeLibraries.options(classPath);
    assertThat(Files.size(unpacked)).isEqualTo(size);
    try (var left = Files.list(unpacked.getParent())) {
      assertThat(left).as("no partial copies left behind").containsExactly(unpacked);
    }
  }

  @Test
  void aClassPathWithClassDirectoriesOrWithoutRocksDbGetsNoOptions() throws Exception {
    String classPath = distribution();
    Path classes = Files.createDirectories(dir.resolve("classes"));
    assertThat(NativeLibraries.options(classPath + File.pathSeparator + classes)).isEmpty();
    assertThat(NativeLibraries.options(dir.resolve("lib").resolve("tessera.jar").toString()))
        .isEmpty();
    assertThat(dir.resolve("lib").resolve("native")).doesNotExist();
  }
}
