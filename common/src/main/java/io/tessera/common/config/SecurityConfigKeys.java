package io.tessera.common.config;

import java.util.List;

/** Who may talk to whom: settings every process reads. */
public final class SecurityConfigKeys {
  private SecurityConfigKeys() {}

  public static final ConfigKey<String> SECURITY =
      ConfigKey.choice(
          "tessera.security",
          "on",
          "on: mutual TLS on every port, users from their certificates, permissions and access"
              + " tokens checked; off: none of it, every caller is who it says (for comparisons"
              + " and tests only; a server started so says it at every start)",
          List.of("on", "off"));
  public static final ConfigKey<String> CREDENTIALS =
      ConfigKey.string(
          "tessera.security.credentials",
          "",
          "this process's credentials file (PEM: the cluster CA's certificate, its own, its private"
              + " key; tessera credentials issue writes one)");

  public static final List<ConfigKey<?>> ALL = List.of(SECURITY, CREDENTIALS);

  public static final ConfigSection SECTION = new ConfigSection("Security", ALL);

  /** Whether the process runs with security (the default). */
  public static boolean enabled(Config c) {
    return c.get(SECURITY).equals("on");
  }
}
