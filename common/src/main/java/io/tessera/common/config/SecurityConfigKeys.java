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

  public static final ConfigKey<String> DATA_PROTECTION =
      ConfigKey.choice(
          "tessera.security.data-protection",
          "privacy",
          "what protects the frames of data connections (data servers, QoS proxies) after their"
              + " mutual TLS handshake: privacy: encrypted and checked by TLS to the end;"
              + " authentication: the handshake authenticates both ends, then frames travel in"
              + " clear, each request still carrying its access token (only for networks no"
              + " stranger can listen to or inject into: it saves the encryption's CPU). Set it on"
              + " servers and clients alike: a client asking for it from a server set to privacy"
              + " is refused",
          List.of("privacy", "authentication"));

  public static final List<ConfigKey<?>> ALL = List.of(SECURITY, CREDENTIALS, DATA_PROTECTION);

  public static final ConfigSection SECTION = new ConfigSection("Security", ALL);

  /** Whether the process runs with security (the default). */
  public static boolean enabled(Config c) {
    return c.get(SECURITY).equals("on");
  }
}
