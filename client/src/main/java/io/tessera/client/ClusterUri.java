package io.tessera.client;

import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/**
 * How a {@code tessera://host:port/path} URI and a front end's settings name a cluster and the
 * credentials to reach it, the same way for the Hadoop adapter and the java.nio provider.
 *
 * <ul>
 *   <li>The meta replicas: {@code meta} (host:port,...) when given, else the URI's authority (one
 *       replica; the client finds the others from it).
 *   <li>The credentials file: {@code credentials}, else {@code tessera.security.credentials}, else
 *       {@code $TESSERA_CREDENTIALS}, as for the CLI.
 *   <li>Every other {@code tessera.*} setting is a client setting ({@code tessera settings
 *       client}).
 * </ul>
 */
public final class ClusterUri {
  /** The URI scheme of Tessera paths. */
  public static final String SCHEME = "tessera";

  /** Setting naming the meta replicas, overriding the URI's authority. */
  public static final String META = "meta";

  /** Setting naming the credentials file. */
  public static final String CREDENTIALS = "credentials";

  /** Setting giving the layout of files created, {@code K+M} (default: the directory's). */
  public static final String EC = "tessera.ec";

  private ClusterUri() {}

  /**
   * Client configuration for {@code uri} with {@code settings}.
   *
   * @throws IllegalArgumentException when neither names the meta replicas
   */
  public static Config clientConfig(URI uri, Map<String, String> settings, String appId) {
    Map<String, String> conf = new HashMap<>();
    settings.forEach(
        (k, v) -> {
          if (k.startsWith("tessera.") && !k.equals(EC)) {
            conf.put(k, v);
          }
        });
    String meta = settings.get(META);
    if (meta == null || meta.isBlank()) {
      meta = uri.getAuthority();
    }
    if (meta == null || meta.isBlank()) {
      throw new IllegalArgumentException(
          uri
              + " names no cluster: give tessera://HOST:PORT/ (a meta replica) or set "
              + META
              + "=host:port,...");
    }
    conf.put(ClientConfigKeys.Cluster.META.key(), meta);
    String credentials = settings.get(CREDENTIALS);
    if (credentials == null || credentials.isBlank()) {
      credentials = conf.get(SecurityConfigKeys.CREDENTIALS.key());
    }
    if (credentials == null || credentials.isBlank()) {
      credentials = System.getenv("TESSERA_CREDENTIALS");
    }
    if (credentials != null && !credentials.isBlank()) {
      conf.put(SecurityConfigKeys.CREDENTIALS.key(), credentials);
    }
    conf.putIfAbsent(ClientConfigKeys.Cluster.APP_ID.key(), appId);
    return Config.of(conf);
  }

  /** The options files are created with under {@code settings} ({@value #EC}), or defaults. */
  public static CreateOptions createOptions(Map<String, String> settings) {
    String ec = settings.get(EC);
    if (ec == null || ec.isBlank()) {
      return CreateOptions.defaults();
    }
    try {
      return CreateOptions.erasure(ec);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(EC + "=" + e.getMessage());
    }
  }
}
