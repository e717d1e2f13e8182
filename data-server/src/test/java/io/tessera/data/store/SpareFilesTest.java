package io.tessera.data.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Removed value files kept for reuse must never hold more disk than allowed, restarts included. */
class SpareFilesTest {
  @TempDir Path dir;

  private Path file(String name, int size) throws Exception {
    return Files.write(dir.resolve(name), new byte[size]);
  }

  private long filesIn(Path d) throws Exception {
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  @Test
  void filesPastTheBoundAreUnlinkedAndThoseKeptAreHandedOutOnce() throws Exception {
    SpareFiles spares = new SpareFiles(dir.resolve("spare"), 3 * 1024);
    for (int i = 0; i < 5; i++) {
      spares.retire(file("v" + i, 1024), 1024, () -> true);
    }
    assertThat(filesIn(dir.resolve("spare"))).isEqualTo(3);
    assertThat(spares.keptBytes()).isEqualTo(3 * 1024);
    for (int i = 0; i < 3; i++) {
      assertThat(spares.reuseAs(dir.resolve("new" + i))).isTrue();
      assertThat(dir.resolve("new" + i)).hasSize(1024);
    }
    assertThat(spares.reuseAs(dir.resolve("new3")))
        .as("none left: the caller creates a file")
        .isFalse();
    assertThat(spares.keptBytes()).isZero();
    assertThat(filesIn(dir.resolve("spare"))).isZero();
  }

  @Test
  void aFileStillBeingReadIsUnlinkedNotKept() throws Exception {
    SpareFiles spares = new SpareFiles(dir.resolve("spare"), 1 << 20);
    Path held = file("held", 1024);
    spares.retire(held, 1024, () -> false);
    assertThat(held).doesNotExist();
    assertThat(filesIn(dir.resolve("spare"))).isZero();
    assertThat(spares.reuseAs(dir.resolve("new"))).isFalse();
  }

  @Test
  void sparesAPreviousRunLeftServeTheNextRunUpToItsBound() throws Exception {
    SpareFiles first = new SpareFiles(dir.resolve("spare"), 1 << 20);
    for (String name : List.of("a", "b", "c")) {
      first.retire(file(name, 1024), 1024, () -> true);
    }
    Files.write(dir.resolve("spare").resolve("not-a-spare"), new byte[10]);

    SpareFiles next = new SpareFiles(dir.resolve("spare"), 2 * 1024);
    assertThat(next.keptBytes()).as("two kept: the bound was lowered to two").isEqualTo(2 * 1024);
    assertThat(filesIn(dir.resolve("spare")))
        .as("the third and the stranger unlinked")
        .isEqualTo(2);
    next.retire(file("d", 1024), 1024, () -> true);
    assertThat(filesIn(dir.resolve("spare"))).as("still within the bound").isEqualTo(2);
    assertThat(next.reuseAs(dir.resolve("new1"))).isTrue();
    assertThat(next.reuseAs(dir.resolve("new2"))).isTrue();
    assertThat(next.reuseAs(dir.resolve("new3"))).isFalse();
  }

  @Test
  void aRestartedRunNamesNewSparesAfterTheOnesItKept() throws Exception {
    SpareFiles first = new SpareFiles(dir.resolve("spare"), 1 << 20);
    first.retire(file("a", 1024), 1024, () -> true);
    first.retire(file("b", 1024), 1024, () -> true);
    SpareFiles next = new SpareFiles(dir.resolve("spare"), 1 << 20);
    next.retire(file("c", 1024), 1024, () -> true);
    assertThat(filesIn(dir.resolve("spare"))).as("none written over by name").isEqualTo(3);
    assertThat(next.keptBytes()).isEqualTo(3 * 1024);
  }

  @Test
  void aDirectorySomeoneLeftAmongTheSparesNeitherStopsTheServerNorTakesASparesName()
      throws Exception {
    Path stray = Files.createDirectories(dir.resolve("spare").resolve("spare-1"));
    Files.write(stray.resolve("notes.txt"), new byte[10]);
    Files.createDirectories(dir.resolve("spare").resolve("backup"));

    SpareFiles spares = new SpareFiles(dir.resolve("spare"), 1 << 20);
    spares.retire(file("a", 1024), 1024, () -> true);

    assertThat(stray.resolve("notes.txt")).as("someone else's files are left alone").exists();
    assertThat(spares.keptBytes()).isEqualTo(1024);
    assertThat(spares.reuseAs(dir.resolve("new"))).isTrue();
    assertThat(Files.size(dir.resolve("new"))).isEqualTo(1024);
  }

  @Test
  void aZeroBoundKeepsNothing() throws Exception {
    SpareFiles spares = new SpareFiles(dir.resolve("spare"), 0);
    Path f = file("v", 10);
    spares.retire(f, 10, () -> true);
    assertThat(f).doesNotExist();
    assertThat(filesIn(dir.resolve("spare"))).isZero();
  }
}
