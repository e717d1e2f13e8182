package io.tessera.data.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.config.Config;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A data server behind NAT or in a container announces what clients can reach, not where it
 * listens; one listening everywhere with nothing to announce would hand clients 0.0.0.0.
 */
class AdvertisedAddressTest {
  private static AdvertisedAddress of(String bind, String advertised) {
    Map<String, String> m = new HashMap<>();
    m.put(DataServerConfigKeys.Server.BIND_HOST.key(), bind);
    if (advertised != null) {
      m.put(DataServerConfigKeys.Server.ADVERTISED_ADDRESS.key(), advertised);
    }
    return AdvertisedAddress.of(Config.of(m));
  }

  @Test
  void withoutAnAdvertisedAddressTheServerAnnouncesWhereItListens() {
    assertThat(of("10.0.0.4", null).address(9870)).isEqualTo("10.0.0.4:9870");
  }

  @Test
  void anAdvertisedHostKeepsTheListeningPortAndAHostPortReplacesBoth() {
    assertThat(of("0.0.0.0", "storage-4").address(9870)).isEqualTo("storage-4:9870");
    assertThat(of("0.0.0.0", "203.0.113.9:19870").address(9870)).isEqualTo("203.0.113.9:19870");
    assertThat(of("::", "2001:db8::4").address(9870)).isEqualTo("[2001:db8::4]:9870");
    assertThat(of("::", "[2001:db8::4]:19870").address(9870)).isEqualTo("[2001:db8::4]:19870");
  }

  @Test
  void listeningEverywhereWithNothingToAnnounceIsRefusedSayingWhatToSet() {
    for (String every : new String[] {"0.0.0.0", "::"}) {
      assertThatThrownBy(() -> of(every, null))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--advertise");
    }
  }

  @Test
  void aMalformedPortIsRefusedNamingTheSetting() {
    assertThatThrownBy(() -> of("0.0.0.0", "storage-4:http"))
        .hasMessageContaining("tessera.data.advertised-address");
  }
}
