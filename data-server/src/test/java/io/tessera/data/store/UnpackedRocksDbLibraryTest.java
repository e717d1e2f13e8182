package io.tessera.data.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tessera.common.platform.UnpackedLibraries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UnpackedRocksDbLibraryTest {
  @TempDir Path dir;

  @Test
  void aServerLeavesNoCopyOfRocksDbInTheTemporaryDirectoryEvenIfItIsKilled() throws Exception {
    Path maps = Path.of("/proc/self/maps");
    assumeTrue(Files.isReadable(maps), "needs /proc (Linux)");
    new RocksShardStore(dir).close(); // loads the library
    List<Path> mapped =
        UnpackedLibraries.mappedFiles().stream()
            .filter(f -> f.getFileName().toString().startsWith("librocksdbjni"))
            .distinct()
            .toList();
    assertThat(mapped).as("the library is loaded").isNotEmpty();
    for (Path copy : mapped) {
      if (UnpackedLibraries.rocksDbUnpackDirectories().stream()
          .anyMatch(d -> d.toAbsolutePath().normalize().equals(copy.getParent()))) {
        // still on disk, it would stay there after a SIGKILL: 17 MB per server start
        assertThat(copy).as("the unpacked copy, while this process runs").doesNotExist();
      }
    }
  }
}
