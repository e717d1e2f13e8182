package io.tessera.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.config.ConfigKey;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** What `tessera settings` prints is what a user can type back. */
class SettingsCommandTest {
  @Test
  void everyDefaultIsPrintedInAFormItsOwnKeyAccepts() {
    for (SettingsCommand.Group g : SettingsCommand.Group.values()) {
      for (ConfigKey<?> k : g.keys()) {
        assertThat((Object) k.parser().apply(k.describeDefault())).as("%s = %s", k.key(), k.describeDefault())
            .isEqualTo(k.defaultValue());
      }
    }
  }

  @Test
  void theClientGroupListsEveryKeyAClientCommandAcceptsAsMinusD() {
    StringWriter out = new StringWriter();
    assertThat(Tessera.run(new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), "settings",
        "client")).isZero();
    for (ConfigKey<?> k : SettingsCommand.Group.client.keys()) {
      assertThat(out.toString()).contains("  " + k.key() + " = " + k.describeDefault());
      assertThat(SettingsCommand.isClientSetting(k.key())).isTrue();
    }
    assertThat(out.toString()).contains("tessera.client.read-chunk = 8M").doesNotContain("tessera.meta.");
    assertThat(SettingsCommand.isClientSetting("tessera.meta.heartbeat-interval")).isFalse();
  }
}
