package io.tessera.common.platform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many writes admitted at once must not together run a disk past its floor: the guard looks the
 * free space up only every 200 ms, and before, every write admitted in between saw the same free
 * space, so a burst of them overshot the floor by the whole burst.
 */
class SpaceGuardTest {
  private static final long MB = 1 << 20;

  @Test
  void writesAdmittedTogetherCountAgainstTheFloorUntilTheDiskShowsThem(@TempDir Path dir) {
    File d = dir.toFile();
    // a floor 100 MiB under what is free now: room for one 60 MiB write, not two
    SpaceGuard guard = new SpaceGuard(d, d.getUsableSpace() - 100 * MB, "test disk", "test.key");
    assertThat(guard.reserve(60 * MB)).isNull();
    assertThat(guard.reserve(60 * MB))
        .as("a second write while the first is in flight")
        .contains("test disk is out of space")
        .contains("test.key");
    guard.release(60 * MB);
    assertThat(guard.reserve(60 * MB))
        .as("the first write ended, but the disk was not looked at again: it still counts")
        .isNotNull();
    assertThat(guard.reserve(10 * MB)).as("what still fits").isNull();
  }
}
