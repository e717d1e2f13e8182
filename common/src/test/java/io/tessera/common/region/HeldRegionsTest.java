package io.tessera.common.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class HeldRegionsTest {
  @Test
  void aSharedLockAskedInsideAnExclusiveOneNeverWeakensIt() {
    HeldRegions held = new HeldRegions();
    held.add(new Region(0, 100, true));
    held.add(new Region(50, 150, false));
    assertThat(held.all()).containsExactly(new Region(0, 100, true), new Region(100, 150, false));
    assertThat(held.covers(0, 100, true)).isTrue();
    assertThat(held.covers(0, 150, true)).as("[100, 150) is only shared").isFalse();
    assertThat(held.covers(0, 150, false)).isTrue();
  }

  @Test
  void givingBackTheMiddleOfARegionKeepsBothEnds() {
    HeldRegions held = new HeldRegions();
    held.add(new Region(0, 1000, true));
    held.remove(100, 200);
    assertThat(held.all()).containsExactly(new Region(0, 100, true), new Region(200, 1000, true));
    assertThat(held.covers(50, 250, false)).as("the hole").isFalse();
    assertThat(held.overlapping(50, 250))
        .containsExactly(new Region(50, 100, true), new Region(200, 250, true));
  }

  @Test
  void touchingRegionsOfOneModeBecomeOneAndGapsAreNotCovered() {
    HeldRegions held = new HeldRegions();
    held.add(new Region(0, 10, false));
    held.add(new Region(20, 30, false));
    assertThat(held.covers(0, 30, false)).isFalse();
    held.add(new Region(10, 20, false));
    assertThat(held.all()).containsExactly(new Region(0, 30, false));
    held.remove(0, Region.TO_END);
    assertThat(held.isEmpty()).isTrue();
  }

  @Test
  void aRegionToTheEndOfTheFileAndMalformedRegions() {
    assertThat(Region.of(4096, 0, true).end()).isEqualTo(Region.TO_END);
    assertThat(Region.of(Long.MAX_VALUE - 1, 10, true).end()).isEqualTo(Region.TO_END);
    assertThatThrownBy(() -> Region.of(-1, 10, true)).hasMessageContaining("non-negative");
    assertThat(new Region(0, 10, false).conflicts(new Region(5, 20, false))).isFalse();
    assertThat(new Region(0, 10, false).conflicts(new Region(5, 20, true))).isTrue();
    assertThat(new Region(0, 10, true).conflicts(new Region(10, 20, true))).isFalse();
  }
}
