package io.tessera.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchivesTest {
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();

  @TempDir Path dir;

  private List<String> launcher(String classPath) {
    return List.of(JAVA, "-Xmx64m", "-cp", classPath, "io.tessera.cli.Tessera");
  }

  private String jars() throws Exception {
    Path a = Files.write(dir.resolve("lib").resolve("a.jar"), new byte[] {1});
    return a
        + File.pathSeparator
        + Files.write(dir.resolve("lib").resolve("b.jar"), new byte[] {2});
  }

  @Test
  void aClassPathWithClassDirectoriesGetsNoArchive() throws Exception {
    Files.createDirectories(dir.resolve("lib"));
    String classPath =
        jars() + File.pathSeparator + Files.createDirectories(dir.resolve("classes"));
    ClassArchives archives = ClassArchives.forLauncher(launcher(classPath));
    assertThat(archives.options("meta", List.of())).isEmpty();
    assertThat(dir.resolve("lib").resolve("cds")).doesNotExist();
  }

  @Test
  void theFirstServerOfAKindWritesItsArchiveAtExitAndLaterOnesUseItOnceWritten() throws Exception {
    Files.createDirectories(dir.resolve("lib"));
    List<String> launcher = launcher(jars());
    ClassArchives first = ClassArchives.forLauncher(launcher);
    List<String> writer = first.options("data", List.of("-XX:TieredStopAtLevel=1"));
    assertThat(writer)
        .anyMatch(
            o -> o.startsWith("-XX:ArchiveClassesAtExit=" + dir.resolve("lib").resolve("cds")));
    assertThat(first.options("data", List.of("-XX:TieredStopAtLevel=1")))
        .as("one writer per kind")
        .isEmpty();
    assertThat(first.options("meta", List.of()))
        .anyMatch(o -> o.startsWith("-XX:ArchiveClassesAtExit="));

    Path pending = Path.of(writer.get(0).substring(writer.get(0).indexOf('=') + 1));
    Path archive =
        pending.resolveSibling(pending.getFileName().toString().replaceAll("\\.part-\\d+$", ""));
    Files.write(archive, new byte[] {42});
    assertThat(
            ClassArchives.forLauncher(launcher).options("data", List.of("-XX:TieredStopAtLevel=1")))
        .containsExactly("-XX:SharedArchiveFile=" + archive);
    assertThat(ClassArchives.forLauncher(launcher).options("data", List.of()))
        .as("other JVM options need an archive of their own")
        .noneMatch(o -> o.startsWith("-XX:SharedArchiveFile"));
  }

  /**
   * A runtime built with jlink has no base archive: a server asked to write one failed with
   * "DynamicDumpSharedSpaces is unsupported when base CDS archive is not loaded" and exited.
   */
  @Test
  void aJavaRuntimeWithoutABaseArchiveGetsNoArchiveOptions() throws Exception {
    Files.createDirectories(dir.resolve("lib"));
    Path home = Files.createDirectories(dir.resolve("jlinked").resolve("bin")).getParent();
    Path java = Files.writeString(home.resolve("bin").resolve("java"), "#!/bin/sh\n");
    ClassArchives archives =
        ClassArchives.forLauncher(
            List.of(java.toString(), "-cp", jars(), "io.tessera.cli.Tessera"));
    assertThat(archives.options("meta", List.of())).isEmpty();
    assertThat(ClassArchives.hasBaseArchive(java)).isFalse();
    assertThat(ClassArchives.hasBaseArchive(Path.of(JAVA))).as("this JDK's").isTrue();
  }

  @Test
  void anArchiveTheJvmRejectsIsDroppedNotUsed() throws Exception {
    Files.createDirectories(dir.resolve("lib"));
    ClassArchives archives = ClassArchives.forLauncher(launcher(jars()));
    List<String> writer = archives.options("meta", List.of());
    Path pending = Path.of(writer.get(0).substring(writer.get(0).indexOf('=') + 1));
    Files.write(
        pending, "torn by a kill during the dump".getBytes()); // what a JVM killed mid-dump leaves
    archives.settle();
    assertThat(pending).doesNotExist();
    try (var left = Files.list(pending.getParent())) {
      assertThat(left).as("no archive to use").isEmpty();
    }
  }

  @Test
  void aNewArchiveReplacesAllButTheNewestOtherOneOfItsKind() throws Exception {
    Path cds = Files.createDirectories(dir.resolve("cds"));
    Path oldest = archiveAt(cds, "meta-0001", 1_000);
    Path testRuns = archiveAt(cds, "meta-0002", 2_000);
    Path dataKind = archiveAt(cds, "data-0003", 500);
    Path current = archiveAt(cds, "meta-0004", 3_000);
    ClassArchives.dropOlder(cds, "meta", current);
    assertThat(current).exists();
    assertThat(testRuns).as("another class path's archive of the same build stays").exists();
    assertThat(oldest).as("an archive of replaced jars goes").doesNotExist();
    assertThat(dataKind).as("other kinds are not touched").exists();
  }

  private static Path archiveAt(Path cds, String name, long modifiedMillis) throws Exception {
    Path p = Files.write(cds.resolve(name + ".jsa"), new byte[] {7});
    Files.setLastModifiedTime(p, FileTime.fromMillis(modifiedMillis));
    return p;
  }
}
