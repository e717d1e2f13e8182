package io.tessera.cli.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamesTest {
  @Test
  void aNameWithANewlineOrTabIsShownOnOneLineAsGnuLsBShowsIt() {
    assertThat(Names.escaped("two\nlines")).isEqualTo("two\\nlines");
    assertThat(Names.escaped("a\tb")).isEqualTo("a\\tb");
    assertThat(Names.escaped("back\\slash")).isEqualTo("back\\\\slash");
    assertThat(Names.escaped("bell\u0007")).isEqualTo("bell\\007");
    assertThat(Names.escaped("plain-ünïcode 水.txt")).isEqualTo("plain-ünïcode 水.txt");
  }
}
