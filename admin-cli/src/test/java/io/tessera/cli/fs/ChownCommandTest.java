package io.tessera.cli.fs;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.cli.Tessera;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ChownCommandTest {
  /** "fs chown -5:-5 /f" said "Missing required parameter: 'PATH'". */
  @Test
  void aNegativeOwnerIsRefusedAsANegativeOwner() {
    StringWriter err = new StringWriter();
    int code =
        Tessera.run(
            new PrintWriter(new StringWriter()),
            new PrintWriter(err, true),
            "fs",
            "chown",
            "-5:-5",
            "/f",
            "--meta",
            "127.0.0.1:1");

    assertThat(code).isEqualTo(Tessera.EXIT_USAGE);
    assertThat(err.toString())
        .contains("owner '-5' is not a number from 0")
        .doesNotContain("Missing required parameter");
  }
}
