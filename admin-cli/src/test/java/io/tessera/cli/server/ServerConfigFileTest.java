package io.tessera.cli.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.cli.Tessera;
import io.tessera.common.config.Config;
import io.tessera.data.server.DataServerConfigKeys;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * An installed server is started from one properties file (systemd runs {@code tessera server data
 * --config FILE}): its flags and settings come from there, the command line still wins, and a
 * misspelt key is refused instead of ignored.
 */
class ServerConfigFileTest {
  @TempDir Path dir;

  private Path file(String text) throws Exception {
    Path f = dir.resolve("data.properties");
    Files.writeString(f, text);
    return f;
  }

  private static DataServerCommand parse(String... args) {
    CommandLine cl = new CommandLine(new ServerCommand());
    String[] all = new String[args.length + 1];
    all[0] = "data";
    System.arraycopy(args, 0, all, 1, args.length);
    ServerConfigFile.install(cl, all);
    cl.parseArgs(all);
    return cl.getSubcommands().get("data").getCommand();
  }

  @Test
  void aServerTakesItsRequiredFlagsAndSettingsFromItsConfigFile() throws Exception {
    Path f =
        file(
            "id=ds-7\ndir=/srv/disk1/tessera\nmeta=10.0.0.1:9860,10.0.0.2:9860\n"
                + "bind-host=0.0.0.0\nadvertise=storage-7:9870\nport=9870\n"
                + "tessera.data.worker-threads=3\n");
    DataServerCommand data = parse("--config", f.toString());
    assertThat(data.id).isEqualTo("ds-7");
    assertThat(data.dir).isEqualTo(Path.of("/srv/disk1/tessera"));
    assertThat(data.meta).isEqualTo("10.0.0.1:9860,10.0.0.2:9860");
    assertThat(data.bindHost).isEqualTo("0.0.0.0");
    assertThat(data.advertise).isEqualTo("storage-7:9870");
    assertThat(data.port).isEqualTo(9870);
    Config config = data.server.config();
    assertThat(config.get(DataServerConfigKeys.Server.WORKER_THREADS)).isEqualTo(3);
  }

  @Test
  void aFlagOnTheCommandLineWinsOverTheFile() throws Exception {
    Path f = file("id=ds-7\ndir=/srv/a\nmeta=h:9860\nport=9870\n");
    DataServerCommand data = parse("--config=" + f, "--port", "9999", "--dir", "/srv/b");
    assertThat(data.port).isEqualTo(9999);
    assertThat(data.dir).isEqualTo(Path.of("/srv/b"));
    assertThat(data.id).isEqualTo("ds-7");
  }

  @Test
  void aKeyThatIsNeitherAFlagNorASettingIsRefusedNamingTheFile() throws Exception {
    Path f = file("id=ds-7\ndir=/srv/a\nmeta=h:9860\nbindhost=0.0.0.0\n");
    DataServerCommand data = parse("--config", f.toString());
    assertThatThrownBy(() -> data.server.config())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(f.toString())
        .hasMessageContaining("'bindhost' is neither a flag of 'server data'");
  }

  @Test
  void aMissingFileIsAUsageErrorBeforeAnythingStarts() {
    StringWriter err = new StringWriter();
    int code =
        Tessera.run(
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            "server",
            "data",
            "--config",
            dir.resolve("absent.properties").toString());
    assertThat(code).isEqualTo(Tessera.EXIT_USAGE);
    assertThat(err.toString()).contains("cannot read configuration file").contains("absent");
  }
}
