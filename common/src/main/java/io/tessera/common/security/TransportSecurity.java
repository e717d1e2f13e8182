package io.tessera.common.security;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import javax.net.ssl.SSLException;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a process's connections are protected: mutual TLS 1.3 with the cluster CA's certificates, or
 * nothing at all ({@code tessera.security=off}). One per process, shared by its ports and its
 * clients, so a revocation reaches every connection it holds.
 */
public final class TransportSecurity {
  private static final Logger LOG = LoggerFactory.getLogger(TransportSecurity.class);
  private static final List<String> PROTOCOLS = List.of("TLSv1.3");

  private final Credentials credentials;
  private final Revocations revocations;
  private final DataProtection dataProtection;
  private final SslContext server;
  private final SslContext client;

  private TransportSecurity(
      Credentials credentials, Revocations revocations, DataProtection dataProtection)
      throws SSLException {
    this.credentials = credentials;
    this.revocations = revocations;
    this.dataProtection = dataProtection;
    if (credentials == null) {
      this.server = null;
      this.client = null;
      return;
    }
    SslProvider provider = provider();
    this.server =
        SslContextBuilder.forServer(new OwnKeyManager(credentials))
            .sslProvider(provider)
            .protocols(PROTOCOLS)
            .clientAuth(ClientAuth.REQUIRE)
            .trustManager(ClusterTrust.anyone(credentials.ca(), revocations))
            .build();
    this.client =
        SslContextBuilder.forClient()
            .sslProvider(provider)
            .protocols(PROTOCOLS)
            .keyManager(new OwnKeyManager(credentials))
            .trustManager(
                ClusterTrust.servers(credentials.ca(), revocations, Set.of(Identity.Role.values())))
            // the peer's identity is in its certificate: which host serves it does not matter
            .endpointIdentificationAlgorithm(null)
            .build();
  }

  /** No TLS, no authentication: every caller is who it says. */
  public static TransportSecurity plaintext() {
    try {
      return new TransportSecurity(null, new Revocations(), DataProtection.PRIVACY);
    } catch (SSLException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  /** Mutual TLS with these credentials, data frames encrypted too. */
  public static TransportSecurity tls(Credentials credentials) throws IOException {
    return tls(credentials, DataProtection.PRIVACY);
  }

  /** Mutual TLS with these credentials, data frames protected as {@code dataProtection} says. */
  public static TransportSecurity tls(Credentials credentials, DataProtection dataProtection)
      throws IOException {
    return new TransportSecurity(credentials, new Revocations(), dataProtection);
  }

  /**
   * What the settings ask for: {@code tessera.security=off}, or TLS with the credentials file of
   * {@code tessera.security.credentials} (or {@code fallback} when that key is not set).
   *
   * @throws IOException when security is on and no readable credentials are given
   */
  public static TransportSecurity from(Config config, Path fallback) throws IOException {
    if (!SecurityConfigKeys.enabled(config)) {
      return plaintext();
    }
    String file = config.get(SecurityConfigKeys.CREDENTIALS);
    Path path = file.isEmpty() ? fallback : Path.of(file);
    if (path == null) {
      throw new IOException(
          "security is on and no credentials were given: pass --credentials FILE (tessera local"
              + " writes them in its directory; tessera credentials issue writes others)");
    }
    return tls(Credentials.load(path), DataProtection.of(config));
  }

  /**
   * A server's security from its settings: its credentials must name this server in this role (else
   * it would be refused by its peers later, with a less clear error). Says at start which it runs
   * with; without security, a warning every start.
   *
   * @throws IOException when security is on and the credentials are missing, unreadable or another
   *     server's
   */
  public static TransportSecurity forServer(Config config, String id, Identity.Role role)
      throws IOException {
    TransportSecurity s = from(config, null);
    if (!s.enabled()) {
      LOG.warn(
          "{}: SECURITY IS OFF (tessera.security=off): no TLS, no authentication, no permission"
              + " checks; anyone who reaches its ports may read, change or delete anything",
          id);
      return s;
    }
    Identity who = s.credentials.identity();
    if (!who.isServer(role) || !who.name().equals(id)) {
      throw new IOException(
          "the credentials of "
              + config.get(SecurityConfigKeys.CREDENTIALS)
              + " are those of "
              + who.describe()
              + ", not of server "
              + id
              + " ("
              + role.name().toLowerCase(java.util.Locale.ROOT)
              + "): tessera credentials issue --server "
              + id
              + " writes them");
    }
    LOG.info(
        "{}: mutual TLS ({}) as {}; data frames: {}",
        id,
        s.implementation(),
        who.describe(),
        s.dataProtection == DataProtection.PRIVACY
            ? "encrypted"
            : "in clear after the handshake (tessera.security.data-protection=authentication)");
    return s;
  }

  /** OpenSSL (BoringSSL, with AES-NI) where its native library loads, else the JDK's TLS. */
  private static SslProvider provider() {
    return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
  }

  /** The TLS implementation in use, for the start-up line ("OpenSSL", "JDK"; "none"). */
  public String implementation() {
    if (credentials == null) {
      return "none";
    }
    return provider() == SslProvider.OPENSSL ? "OpenSSL " + OpenSsl.versionString() : "JDK";
  }

  public boolean enabled() {
    return credentials != null;
  }

  /** What protects data connections after their handshake. */
  public DataProtection dataProtection() {
    return dataProtection;
  }

  /** Whether data connections go on in clear after their handshake. */
  public boolean clearDataFrames() {
    return enabled() && dataProtection == DataProtection.AUTHENTICATION;
  }

  /** This process's credentials (null without security). */
  public Credentials credentials() {
    return credentials;
  }

  /** The process's revocation list: its ports refuse and drop what it revokes. */
  public Revocations revocations() {
    return revocations;
  }

  /** Presents this process's certificate (for transports that build their own TLS: Raft). */
  public X509ExtendedKeyManager keyManager() {
    return new OwnKeyManager(credentials);
  }

  /**
   * Trusts the cluster's servers of these roles alone, unless revoked (for transports that build
   * their own TLS: Raft's port takes meta replicas only).
   */
  public X509ExtendedTrustManager trust(Set<Identity.Role> roles) {
    return ClusterTrust.servers(credentials.ca(), revocations, roles);
  }

  /** The context of this process's ports (null without security). */
  public SslContext serverContext() {
    return server;
  }

  /** The context of this process's outgoing connections (null without security). */
  public SslContext clientContext() {
    return client;
  }
}
