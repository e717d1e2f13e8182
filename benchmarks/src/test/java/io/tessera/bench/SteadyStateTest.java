package io.tessera.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SteadyStateTest {
  @Test
  void aClusterStillCompilingGetsAnotherPassUntilTwoPassesAgree() {
    SteadyState s = new SteadyState(8, 0.10);
    assertThat(s.another(250)).as("one pass says nothing about steadiness").isTrue();
    assertThat(s.another(420)).as("68 % faster than the pass before").isTrue();
    assertThat(s.another(455)).as("8 % faster: steady").isFalse();
    assertThat(s.rates()).containsExactly(250.0, 420.0, 455.0);
  }

  @Test
  void aRateThatDropsByMoreThanTheToleranceIsNotSteadyEither() {
    SteadyState s = new SteadyState(8, 0.10);
    s.another(500);
    assertThat(s.another(300)).isTrue();
    assertThat(s.another(310)).isFalse();
  }

  @Test
  void warmUpStopsAtItsLimitEvenWhenRatesKeepSwinging() {
    SteadyState s = new SteadyState(3, 0.10);
    assertThat(s.another(100)).isTrue();
    assertThat(s.another(200)).isTrue();
    assertThat(s.another(400)).isFalse();
  }

  @Test
  void readsStillCompilingGetAnotherPassAfterTheWritesSettled() {
    SteadyState s = new SteadyState(8, 0.10);
    s.another(400, 900);
    assertThat(s.another(420, 1300)).as("writes within 5 %, reads 44 % faster").isTrue();
    assertThat(s.another(415, 1350)).as("both within 10 %").isFalse();
    assertThat(s.rates()).containsExactly(400.0, 420.0, 415.0);
    assertThat(s.ratesText(1)).isEqualTo("900, 1300, 1350");
  }

  @Test
  void aRateNotMeasuredNeverHoldsTheWarmUp() {
    SteadyState s = new SteadyState(8, 0.10);
    s.another(400, Double.NaN);
    assertThat(s.another(410, Double.NaN)).isFalse();
  }

  @Test
  void aSinglePassLimitMeansOnePass() {
    assertThat(new SteadyState(1, 0.10).another(100)).isFalse();
    assertThatThrownBy(() -> new SteadyState(0, 0.10)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aFixedNumberOfPassesIgnoresTheRates() {
    SteadyState s = SteadyState.fixed(3);
    assertThat(s.another(100)).isTrue();
    assertThat(s.another(100))
        .as("the same rate twice: steady, but three passes were asked")
        .isTrue();
    assertThat(s.another(100)).isFalse();
    assertThatThrownBy(() -> SteadyState.fixed(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theCommandLineValueIsAutoOrAPositiveCount() {
    SteadyState auto = SteadyState.of("auto");
    auto.another(100);
    assertThat(auto.another(105)).isFalse();
    assertThat(SteadyState.of("2").another(100)).isTrue();
    assertThatThrownBy(() -> SteadyState.of("0"))
        .hasMessageContaining("expected auto or a number >= 1");
    assertThatThrownBy(() -> SteadyState.of("many")).hasMessageContaining("--warmup-passes=many");
  }
}
