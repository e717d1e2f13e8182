package io.tessera.cli.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A 236-255 byte name worked with mkdir but not put: its hidden temporary name grew past 255 bytes.
 */
class PartialNameTest {
  @Test
  void theHiddenNameOfAPutFitsTheNameLimitWhateverTheNameAndItsCharacters() {
    for (String unit : new String[] {"a", "é", "水", "😀"}) {
      for (int n = 1; n <= 255; n++) {
        String name = unit.repeat(n);
        if (name.getBytes(StandardCharsets.UTF_8).length > 255) {
          break;
        }
        String partial = Upload.partialName(name, 4_194_304);
        assertThat(partial.getBytes(StandardCharsets.UTF_8).length)
            .as("hidden name of %d x '%s'", n, unit)
            .isLessThanOrEqualTo(255);
        assertThat(partial).startsWith(".").endsWith(".tessera-part-4194304");
        assertThat(partial).as("whole characters kept").doesNotContain("\uFFFD");
        assertThat(name)
            .startsWith(partial.substring(1, partial.length() - ".tessera-part-4194304".length()));
      }
    }
    assertThat(Upload.partialName("report.txt", 42)).isEqualTo(".report.txt.tessera-part-42");
  }
}
