package io.tessera.cli.server;

import io.tessera.cli.SettingsCommand;
import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;
import io.tessera.common.metrics.MetricsEndpoint;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.rpc.HostPort;
import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Options every server command takes: settings and the cluster.json to keep current. */
public final class ServerOptions {
  @Option(
      names = {"--config", "--conf"},
      paramLabel = "FILE",
      description =
          "a properties file of this server's settings (tessera.* keys, as tessera settings lists"
              + " them) and flags (each by its name without dashes: id=ds-1, bind-host=0.0.0.0);"
              + " a flag on the command line wins")
  Path conf;

  @Spec(Spec.Target.MIXEE)
  CommandSpec command;

  @Option(
      names = "-D",
      paramLabel = "KEY=VALUE",
      description = "one setting, e.g. -Dtessera.meta.log-sync=false")
  Map<String, String> defines;

  @Option(
      names = "--http",
      paramLabel = "HOST:PORT",
      description =
          "serve Prometheus metrics at http://HOST:PORT/metrics; a meta replica also serves the"
              + " console and its REST API there (tessera local: each server's client port + 1000)")
  String http;

  @Option(
      names = "--credentials",
      paramLabel = "FILE",
      description =
          "this server's credentials (PEM: the cluster CA's certificate, the server's, its key;"
              + " tessera credentials issue --server ID writes them; tessera local keeps them in"
              + " <dir>/credentials/); the same as -Dtessera.security.credentials=FILE")
  Path credentials;

  @Option(names = "--cluster-file", description = "cluster.json to record this process's PID in")
  Path clusterFile;

  @Option(
      names = "--log",
      paramLabel = "FILE",
      description =
          "append this server's output to FILE instead of the "
              + "terminal (tessera local gives each server <dir>/logs/<id>.log, also when it is restarted from its cmd)")
  Path log;

  /**
   * Sends standard output and error to the --log file, if one is given; before the server logs
   * anything.
   */
  void redirectOutput() throws IOException {
    if (log == null) {
      return;
    }
    if (log.getParent() != null) {
      Files.createDirectories(log.getParent());
    }
    PrintStream to =
        new PrintStream(new FileOutputStream(log.toFile(), true), true, StandardCharsets.UTF_8);
    System.setOut(to);
    System.setErr(to);
  }

  /**
   * Starts serving {@code metrics} at the --http address; without one, nothing (the returned
   * Closeable does nothing).
   */
  Closeable serveMetrics(ServerMetrics metrics) throws IOException {
    if (http == null) {
      return () -> {};
    }
    return MetricsEndpoint.start(HostPort.parse(http), metrics);
  }

  /** The server's settings; a key no server reads is refused, from -D or from the file. */
  Config config() {
    Map<String, String> given = defines == null ? new HashMap<>() : new HashMap<>(defines);
    if (credentials != null) {
      given.put(SecurityConfigKeys.CREDENTIALS.key(), credentials.toString());
    }
    SettingsCommand.requireServerSettings("-D", given.keySet());
    Map<String, String> fromFile = new HashMap<>();
    if (conf != null) {
      ServerConfigFile file = ServerConfigFile.read(conf);
      fromFile = file.settings();
      SettingsCommand.requireServerSettings(conf + ": ", fromFile.keySet());
      file.requireFlagsOf(command);
    }
    Config config = Config.load(fromFile, given);
    SettingsCommand.requireValidServerSettings(config);
    return config;
  }
}
