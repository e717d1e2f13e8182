package io.tessera.it.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class VictimChoiceTest {
  static final List<String> SERVERS = List.of("ds-1", "ds-2", "ds-3", "ds-4");

  @Test
  void aServerThatWasDrainedAndCameBackEmptyIsNeverTheVictim() {
    // ds-1 was decommissioned: every file moved to the other three
    List<List<String>> holders =
        List.of(List.of("ds-2", "ds-3", "ds-4"), List.of("ds-2", "ds-3", "ds-4"));
    for (int rotation = 0; rotation < 8; rotation++) {
      List<String> ranked = VictimChoice.rank(SERVERS, holders, rotation);
      assertThat(ranked.subList(0, 2)).doesNotContain("ds-1");
      assertThat(ranked.get(3)).isEqualTo("ds-1");
    }
  }

  @Test
  void theSecondVictimSharesTheMostFilesWithTheFirst() {
    List<List<String>> holders =
        List.of(
            List.of("ds-1", "ds-2"),
            List.of("ds-1", "ds-3"),
            List.of("ds-1", "ds-3"),
            List.of("ds-2", "ds-4"));
    assertThat(VictimChoice.rank(SERVERS, holders, 0).subList(0, 2))
        .containsExactly("ds-1", "ds-3");
  }

  @Test
  void whenEveryServerHoldsAsMuchSuccessiveRunsFaultDifferentServers() {
    List<List<String>> holders = List.of(SERVERS);
    assertThat(VictimChoice.rank(SERVERS, holders, 0).get(0)).isEqualTo("ds-1");
    assertThat(VictimChoice.rank(SERVERS, holders, 2).get(0)).isEqualTo("ds-3");
    assertThat(VictimChoice.rank(SERVERS, holders, 5).get(0)).isEqualTo("ds-2");
  }
}
