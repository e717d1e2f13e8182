package io.tessera.cli.server;

import io.tessera.cli.SettingsCommand;
import io.tessera.common.config.Config;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** Options every server command takes: settings and the cluster.json to keep current. */
public final class ServerOptions {
  @Option(names = "--conf", description = "a properties file of tessera.* settings")
  Path conf;

  @Option(names = "-D", paramLabel = "KEY=VALUE", description = "one setting, e.g. -Dtessera.meta.log-sync=false")
  Map<String, String> defines;

  @Option(names = "--cluster-file", description = "cluster.json to record this process's PID in")
  Path clusterFile;

  /**
   * The server's settings. A key no server reads is refused, from -D or from the file (one file
   * may serve every server of a cluster, so a meta server accepts data servers' keys and the
   * other way round).
   */
  Config config() {
    Map<String, String> given = defines == null ? Map.of() : new HashMap<>(defines);
    SettingsCommand.requireKnown("-D", given.keySet(), "server", SettingsCommand.Group.meta,
        SettingsCommand.Group.data);
    if (conf != null) {
      SettingsCommand.requireKnown(conf + ": ", Config.fileSettings(conf).keySet(), "server",
          SettingsCommand.Group.meta, SettingsCommand.Group.data);
    }
    return Config.load(conf, given);
  }
}
