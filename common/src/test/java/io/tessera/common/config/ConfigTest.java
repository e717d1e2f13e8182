package io.tessera.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {
  @Test
  void sizesAndDurationsReadAsPeopleWriteThem() {
    assertThat(DataSize.parse("4096")).isEqualTo(4096);
    assertThat(DataSize.parse("64K")).isEqualTo(65536);
    assertThat(DataSize.parse("1MiB")).isEqualTo(1 << 20);
    assertThat(DataSize.parse("2g")).isEqualTo(2L << 30);
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void aSizeIsWrittenInItsShortestExactFormAndReadsBackTheSame() {
    assertThat(DataSize.formatExact(8L << 20)).isEqualTo("8M");
    assertThat(DataSize.formatExact(3L << 40)).isEqualTo("3T");
    assertThat(DataSize.formatExact(1536)).as("not a whole number of KiB").isEqualTo("1536");
    for (long bytes : new long[] {0, 1, 4097, 65536, 48L << 20, 1L << 30, (1L << 30) + 1024}) {
      assertThat(DataSize.parse(DataSize.formatExact(bytes))).isEqualTo(bytes);
    }
  }

  @Test
  void aBadValueNamesItsKeyAndWhatItExpects() {
    Config c = Config.of(Map.of(RpcConfigKeys.CALL_TIMEOUT.key(), "soon"));
    assertThatThrownBy(() -> c.get(RpcConfigKeys.CALL_TIMEOUT))
        .hasMessageContaining("tessera.rpc.call-timeout=soon")
        .hasMessageContaining("500ms");
    assertThatThrownBy(() -> DataSize.parse("lots")).hasMessageContaining("64K");
    assertThatThrownBy(() -> DataSize.parse("-1")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aShareIsReadAsAPercentageAndOneOutsideOneToAHundredIsRefused() {
    ConfigKey<Integer> share = ConfigKey.percent("tessera.test.share", 30, "a share");
    assertThat(share.parser().apply("25")).isEqualTo(25);
    assertThat(share.parser().apply(" 100% ")).isEqualTo(100);
    assertThatThrownBy(() -> share.parser().apply("0")).hasMessageContaining("between 1% and 100%");
    assertThatThrownBy(() -> share.parser().apply("150%"))
        .hasMessageContaining("between 1% and 100%");
    assertThatThrownBy(() -> share.parser().apply("half")).hasMessageContaining("30%");
  }

  @Test
  void aCountBelowItsLeastIsRefusedWithTheKeyNamed() {
    ConfigKey<Integer> inFlight = ConfigKey.integer("tessera.test.in-flight", 16, 1, "entries");
    Config c = Config.of(Map.of(inFlight.key(), "0"));
    assertThatThrownBy(() -> c.get(inFlight))
        .hasMessageContaining("tessera.test.in-flight=0")
        .hasMessageContaining("below 1");
    assertThat(Config.of(Map.of(inFlight.key(), "1")).get(inFlight)).isEqualTo(1);
  }

  @Test
  void defaultsApplyWhenNothingIsSet() {
    assertThat(Config.defaults().get(RpcConfigKeys.MAX_FRAME_SIZE)).isEqualTo(72L << 20);
  }
}
