package io.tessera.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.config.ConfigKey;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What `tessera settings` prints is what a user can type back, and a key nobody reads is refused.
 */
class SettingsCommandTest {
  @Test
  void everyDefaultIsPrintedInAFormItsOwnKeyAccepts() {
    for (SettingsCommand.Group g : SettingsCommand.Group.values()) {
      for (ConfigKey<?> k : g.keys()) {
        assertThat((Object) k.parser().apply(k.describeDefault()))
            .as("%s = %s", k.key(), k.describeDefault())
            .isEqualTo(k.defaultValue());
      }
    }
  }

  @Test
  void theClientGroupListsEveryKeyAClientCommandAcceptsAsMinusD() {
    StringWriter out = new StringWriter();
    assertThat(
            Tessera.run(
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true),
                "settings",
                "client"))
        .isZero();
    for (ConfigKey<?> k : SettingsCommand.Group.client.keys()) {
      assertThat(out.toString()).contains("  " + k.key() + " = " + k.describeDefault());
    }
    SettingsCommand.requireKnown(
        "-D",
        SettingsCommand.Group.client.keys().stream().map(ConfigKey::key).toList(),
        "client",
        SettingsCommand.Group.client);
    assertThat(out.toString())
        .contains("tessera.client.read-chunk = 8M")
        .doesNotContain("tessera.meta.");
    assertThatThrownBy(
            () ->
                SettingsCommand.requireKnown(
                    "-D",
                    List.of("tessera.meta.heartbeat-interval"),
                    "client",
                    SettingsCommand.Group.client))
        .hasMessage(
            "-Dtessera.meta.heartbeat-interval is not a client setting "
                + "(tessera settings client lists them)");
  }

  @Test
  void docsConfigurationIsWhatSettingsPrintsToday() throws Exception {
    Path doc = Path.of("..", "docs", "configuration.md");
    assertThat(Files.readString(doc))
        .as("%s is out of date: ./tessera settings --markdown > docs/configuration.md", doc)
        .isEqualTo(SettingsCommand.markdown());
  }

  @Test
  void jsonListsEveryKeyOfEachGroupWithItsDefaultForScripts() throws Exception {
    StringWriter out = new StringWriter();
    assertThat(
            Tessera.run(
                new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true),
                "settings",
                "--json"))
        .isZero();
    var doc = new com.fasterxml.jackson.databind.ObjectMapper().readTree(out.toString());
    for (SettingsCommand.Group g : SettingsCommand.Group.values()) {
      assertThat(doc.get(g.name())).as(g.name()).hasSize(g.keys().size());
      ConfigKey<?> first = g.keys().get(0);
      assertThat(doc.get(g.name()).get(0).get("key").asText()).isEqualTo(first.key());
      assertThat(doc.get(g.name()).get(0).get("default").asText())
          .isEqualTo(first.describeDefault());
    }
  }

  @Test
  void aServerGivenASettingNoServerReadsRefusesToStartAndSaysWhichOne(@TempDir Path dir)
      throws Exception {
    Cli meta =
        Cli.run(
            "server",
            "meta",
            "--id",
            "m1",
            "--peers",
            "m1=127.0.0.1:1:2",
            "--dir",
            dir.toString(),
            "-Dtessera.meta.rebuild-rat=8M");
    assertThat(meta.code).isEqualTo(2);
    assertThat(meta.err.strip().lines())
        .singleElement()
        .asString()
        .contains(
            "-Dtessera.meta.rebuild-rat is not a "
                + "server setting (tessera settings meta, tessera settings data, tessera settings qos,"
                + " tessera settings nfs, tessera settings client list them)");
    assertThat(dir).isEmptyDirectory();

    Path conf = dir.resolve("tessera.properties");
    // one file for every server of a cluster: a data server accepts the meta group's keys
    Files.writeString(conf, "tessera.meta.rebuild-rate=8M\ntessera.data.scrub-rat=1M\n");
    Cli data =
        Cli.run(
            "server",
            "data",
            "--id",
            "ds-1",
            "--dir",
            dir.resolve("ds-1").toString(),
            "--meta",
            "127.0.0.1:1",
            "--conf",
            conf.toString());
    assertThat(data.code).isEqualTo(2);
    assertThat(data.err.strip().lines())
        .singleElement()
        .asString()
        .contains(conf + ": tessera.data.scrub-rat is not" + " a server setting");

    Cli local =
        Cli.run("local", "--dir", dir.resolve("cluster").toString(), "-Dtessera.data.scrub-rat=1M");
    assertThat(local.code).isEqualTo(2);
    assertThat(local.err).contains("-Dtessera.data.scrub-rat is not a server setting");
    assertThat(dir.resolve("cluster")).doesNotExist();
  }

  @Test
  void aBadValueStopsTheClusterBeforeAnyServerStartsAndNamesTheKey(@TempDir Path dir) {
    Cli local =
        Cli.run(
            "local",
            "--dir",
            dir.resolve("cluster").toString(),
            "-Dtessera.meta.replace-after=soon",
            "-Dtessera.rpc.call-timeout=-5s");
    assertThat(local.code).isEqualTo(2);
    assertThat(local.err.strip().lines())
        .singleElement()
        .asString()
        .contains("tessera.meta.replace-after=soon: 'soon' is not a duration")
        .contains("tessera.rpc.call-timeout=-5s: '-5s' is negative");
    assertThat(dir.resolve("cluster")).doesNotExist();
  }

  /** One command line's exit code and output. */
  private record Cli(int code, String out, String err) {
    static Cli run(String... args) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      int code = Tessera.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
      return new Cli(code, out.toString(), err.toString());
    }
  }
}
