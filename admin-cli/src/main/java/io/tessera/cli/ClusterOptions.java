package io.tessera.cli;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.Config;
import io.tessera.common.config.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How a command finds and reaches the cluster; mixed into every command that talks to one. Order:
 * {@code --meta}, {@code $TESSERA_META}, then {@code ./tessera-data/cluster.json}.
 */
public final class ClusterOptions {
  @Option(
      names = "--meta",
      paramLabel = "HOST:PORT,...",
      description =
          "meta replicas to contact (default: $TESSERA_META, else the cluster.json of tessera-data in the "
              + "current directory)")
  String meta;

  @Option(
      names = "--app-id",
      paramLabel = "NAME",
      defaultValue = "${env:TESSERA_APP_ID:-tessera-cli}",
      description =
          "application name the QoS proxies schedule this command's requests as (default:"
              + " $TESSERA_APP_ID, else tessera-cli)")
  String appId;

  @Option(
      names = "--timeout",
      paramLabel = "DURATION",
      defaultValue = "10s",
      description = "how long to retry while no meta leader answers (default: ${DEFAULT-VALUE})")
  String timeout;

  @Option(
      names = "-D",
      paramLabel = "KEY=VALUE",
      description = {
        "one client setting, e.g. "
            + "-Dtessera.client.reads-ahead=8 (repeatable; every key, with its default: tessera settings client)"
      })
  Map<String, String> settings;

  /** The meta addresses this command will use. */
  public String metaAddresses() throws IOException {
    if (meta != null && !meta.isBlank()) {
      return meta;
    }
    String env = System.getenv("TESSERA_META");
    if (env != null && !env.isBlank()) {
      return env;
    }
    Path local = Path.of("tessera-data", ClusterFile.NAME);
    if (Files.exists(local)) {
      return ClusterFile.read(local).metaAddresses();
    }
    throw new IllegalArgumentException(
        "no cluster given: pass --meta host:port,..., set TESSERA_META, "
            + "or run from the directory where 'tessera local' keeps tessera-data/");
  }

  /**
   * These options as command-line arguments, for another process of this command (--meta excepted:
   * give it {@link #metaAddresses()}).
   */
  public List<String> forwardedOptions() {
    List<String> out = new ArrayList<>(List.of("--app-id", appId, "--timeout", timeout));
    if (settings != null) {
      settings.forEach((k, v) -> out.add("-D" + k + "=" + v));
    }
    return out;
  }

  /** A connected client; close it when done. */
  public TesseraFileSystem connect() throws IOException {
    return connect(Map.of());
  }

  /** A connected client with these client settings too (a benchmark's application id). */
  public TesseraFileSystem connect(Map<String, String> overrides) throws IOException {
    Map<String, String> conf = new HashMap<>();
    if (settings != null) {
      try {
        SettingsCommand.requireKnown(
            "-D", settings.keySet(), "client", SettingsCommand.Group.client);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            e.getMessage() + "; --meta, --app-id and --timeout have options " + "of their own");
      }
      conf.putAll(settings);
    }
    conf.put(ClientConfigKeys.Cluster.META.key(), metaAddresses());
    conf.put(ClientConfigKeys.Cluster.APP_ID.key(), appId);
    try {
      Durations.parse(timeout);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--timeout " + e.getMessage());
    }
    conf.put(ClientConfigKeys.Cluster.META_RETRY_FOR.key(), timeout);
    conf.putAll(overrides);
    return TesseraFileSystem.connect(Config.of(conf));
  }
}
