package io.tessera.console.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Paths the API accepts and the ones it refuses before they reach the namespace. */
class RequestsTest {
  @ParameterizedTest
  @ValueSource(strings = {"/", "/data", "/data/a.txt", "/.snapshots/s1/data", "/a..b/..c", "/x/"})
  void plainAbsolutePathsPass(String p) {
    assertThat(Requests.checkPath(p)).isEqualTo(p);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"..", "/..", "/a/../b", "/a/..", "/./a", "a/b", "", "/a/\u0000b", "/a\nb"})
  void traversalRelativeAndControlCharactersAreRefused(String p) {
    assertThatThrownBy(() -> Requests.checkPath(p))
        .isInstanceOf(ApiException.class)
        .satisfies(e -> assertThat(((ApiException) e).status()).isEqualTo(400));
  }

  @ParameterizedTest
  @ValueSource(ints = {4097, 100_000})
  void overlongPathsAreRefused(int n) {
    assertThatThrownBy(() -> Requests.checkPath("/" + "a".repeat(n)))
        .hasMessageContaining("longer than");
  }
}
