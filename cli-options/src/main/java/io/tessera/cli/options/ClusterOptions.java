package io.tessera.cli.options;

import io.tessera.client.ClientConfigKeys;
import io.tessera.client.TesseraFileSystem;
import io.tessera.common.cluster.AppIds;
import io.tessera.common.cluster.ClusterFile;
import io.tessera.common.config.Config;
import io.tessera.common.config.Durations;
import io.tessera.common.config.SecurityConfigKeys;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.security.Credentials;
import io.tessera.common.security.DataProtection;
import io.tessera.common.security.TransportSecurity;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * How a command finds and reaches the cluster, and proves who it is; mixed into every command that
 * talks to one. Meta addresses: {@code --meta}, {@code $TESSERA_META}, then {@code
 * ./tessera-data/cluster.json}. Credentials: {@code --credentials}, {@code $TESSERA_CREDENTIALS},
 * then the file that cluster.json names.
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
      names = "--credentials",
      paramLabel = "FILE",
      description =
          "who this command acts as: a credentials file (default: $TESSERA_CREDENTIALS, else the"
              + " admin credentials named in ./tessera-data/cluster.json)")
  Path credentials;

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
      defaultValue = "30s",
      description =
          "how long to retry while no meta leader answers, as through an election or a loaded"
              + " leader (default: ${DEFAULT-VALUE}); a cluster that is not running is reported at"
              + " once")
  String timeout;

  @Option(
      names = "-D",
      paramLabel = "KEY=VALUE",
      description = {
        "one client setting, e.g. "
            + "-Dtessera.client.reads-ahead=8 (repeatable; every key, with its default: tessera settings client)"
      })
  Map<String, String> settings;

  /**
   * Where {@code tessera local} keeps the cluster.json read when nothing else names the cluster.
   */
  private Path localCluster = Path.of("tessera-data");

  /**
   * Reads the cluster.json in {@code dir} (a local cluster's directory a command was given) where
   * neither options nor the environment name the cluster or credentials.
   */
  public void useLocalCluster(Path dir) {
    this.localCluster = dir;
  }

  /** The meta addresses this command will use. */
  public String metaAddresses() throws IOException {
    if (meta != null && !meta.isBlank()) {
      return meta;
    }
    String env = System.getenv("TESSERA_META");
    if (env != null && !env.isBlank()) {
      return env;
    }
    Path local = localCluster.resolve(ClusterFile.NAME);
    if (Files.exists(local)) {
      ClusterFile cluster = ClusterFile.read(local);
      if (cluster.stoppedAtMs() != null) {
        throw new TesseraException(
            StatusProto.UNAVAILABLE,
            "the cluster in "
                + localCluster
                + " was stopped at "
                + Instant.ofEpochMilli(cluster.stoppedAtMs())
                + ": start it again with 'tessera local"
                + (localCluster.equals(Path.of("tessera-data")) ? "" : " --dir " + localCluster)
                + "'");
      }
      return cluster.metaAddresses();
    }
    throw new IllegalArgumentException(
        "no cluster given: pass --meta host:port,..., set TESSERA_META, "
            + "or run from the directory where 'tessera local' keeps tessera-data/");
  }

  /**
   * The credentials file this command will use, or null when none is given anywhere (the cluster
   * then refuses it, unless security is off).
   */
  public Path credentialsFile() throws IOException {
    if (credentials != null) {
      return credentials;
    }
    String env = System.getenv("TESSERA_CREDENTIALS");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    Path local = localCluster.resolve(ClusterFile.NAME);
    if (Files.exists(local)) {
      String named = ClusterFile.read(local).credentials();
      return named == null ? null : Path.of(named);
    }
    return null;
  }

  /**
   * These options as command-line arguments, for another process of this command (--meta excepted:
   * give it {@link #metaAddresses()}).
   */
  public List<String> forwardedOptions() throws IOException {
    List<String> out = new ArrayList<>(List.of("--app-id", appId, "--timeout", timeout));
    Path creds = credentialsFile();
    if (creds != null) {
      out.add("--credentials");
      out.add(creds.toAbsolutePath().toString());
    }
    if (settings != null) {
      settings.forEach((k, v) -> out.add("-D" + k + "=" + v));
    }
    return out;
  }

  /**
   * Refuses a malformed --app-id or --timeout as bad usage before the cluster is asked anything: a
   * cluster would refuse the first, and the second could never be met.
   */
  private void checkAppIdAndTimeout() {
    if (!AppIds.valid(appId)) {
      throw new IllegalArgumentException("--app-id: " + AppIds.whyInvalid(appId));
    }
    Duration t;
    try {
      t = Durations.parse(timeout);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--timeout " + e.getMessage());
    }
    if (t.isZero() || t.isNegative()) {
      throw new IllegalArgumentException(
          "--timeout "
              + timeout
              + ": must be more than 0, the time a command gives the meta leader to answer (e.g."
              + " 5s)");
    }
  }

  /** A connected client; close it when done. */
  public TesseraFileSystem connect() throws IOException {
    return connect(Map.of());
  }

  /** A connected client with these client settings too (a benchmark's application id). */
  public TesseraFileSystem connect(Map<String, String> overrides) throws IOException {
    Map<String, String> conf = new HashMap<>();
    if (settings != null) {
      for (String key : settings.keySet()) {
        if (ClientConfigKeys.READ_BY_CLIENTS.stream().noneMatch(k -> k.key().equals(key))) {
          throw new IllegalArgumentException(
              "-D"
                  + key
                  + " is not a client setting (tessera settings client lists them); --meta,"
                  + " --app-id and --timeout have options of their own");
        }
      }
      conf.putAll(settings);
    }
    conf.put(ClientConfigKeys.Cluster.META.key(), metaAddresses());
    conf.put(ClientConfigKeys.Cluster.APP_ID.key(), appId);
    checkAppIdAndTimeout();
    conf.put(ClientConfigKeys.Cluster.META_RETRY_FOR.key(), timeout);
    conf.putAll(overrides);
    Config config = Config.of(conf);
    TransportSecurity security = transportSecurity(config);
    return TesseraFileSystem.connect(config, security);
  }

  /**
   * How this command's connections are protected: mutual TLS with its credentials, or nothing with
   * {@code -Dtessera.security=off}.
   *
   * @throws TesseraException PERMISSION_DENIED when no readable credentials are given
   */
  public TransportSecurity transportSecurity() throws IOException {
    Map<String, String> conf = new HashMap<>(settings == null ? Map.of() : settings);
    return transportSecurity(Config.of(conf));
  }

  private TransportSecurity transportSecurity(Config config) throws IOException {
    if (!SecurityConfigKeys.enabled(config)) {
      return TransportSecurity.plaintext();
    }
    Path creds = credentialsFile();
    if (creds == null) {
      throw new TesseraException(
          StatusProto.PERMISSION_DENIED,
          "not authenticated: no credentials (pass --credentials FILE, set TESSERA_CREDENTIALS,"
              + " or run where tessera local keeps tessera-data/)");
    }
    try {
      return TransportSecurity.tls(Credentials.load(creds), DataProtection.of(config));
    } catch (IOException e) {
      throw new TesseraException(
          StatusProto.PERMISSION_DENIED, "not authenticated: " + e.getMessage());
    }
  }
}
