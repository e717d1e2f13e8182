package io.tessera.data.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removed value files kept for reuse must never hold more disk than allowed, nor outlive a restart.
 */
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
  void sparesAPreviousRunLeftAreRemovedAtStart() throws Exception {
    SpareFiles first = new SpareFiles(dir.resolve("spare"), 1 << 20);
    first.retire(file("a", 1024), 1024, () -> true);
    first.retire(file("b", 1024), 1024, () -> true);
    SpareFiles next = new SpareFiles(dir.resolve("spare"), 1 << 20);
    assertThat(filesIn(dir.resolve("spare"))).isZero();
    assertThat(next.reuseAs(dir.resolve("new"))).isFalse();
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
