package io.tessera.common.dataio;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A dead proxy must not make its data server unreachable: requests go around it for a while. */
class ProxyRoutesTest {
  @Test
  void requestsGoToTheProxyUntilItFailsThenDirectUntilTheBypassEnds() throws Exception {
    ProxyRoutes routes = new ProxyRoutes(200);
    assertThat(routes.choose("ds-1", "h:1", "h:2")).isEqualTo("h:2");
    routes.proxyFailed("ds-1");
    assertThat(routes.choose("ds-1", "h:1", "h:2")).isEqualTo("h:1");
    assertThat(routes.choose("ds-2", "h:3", "h:4"))
        .as("other servers keep theirs")
        .isEqualTo("h:4");
    Thread.sleep(250);
    assertThat(routes.choose("ds-1", "h:1", "h:2")).isEqualTo("h:2");
  }

  @Test
  void aServerWithoutAProxyIsReachedDirectly() {
    assertThat(new ProxyRoutes(1000).choose("ds-1", "h:1", "")).isEqualTo("h:1");
  }
}
