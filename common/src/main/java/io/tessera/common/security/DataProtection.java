package io.tessera.common.security;

import io.tessera.common.config.Config;
import io.tessera.common.config.SecurityConfigKeys;

/**
 * What protects a data connection's frames once its mutual TLS handshake has authenticated both
 * ends (as HDFS's data transfer protection, or Ceph's msgr2 {@code secure} and {@code crc} modes).
 * Metadata connections are always {@link #PRIVACY}.
 */
public enum DataProtection {
  /** TLS to the end: every frame encrypted and checked. */
  PRIVACY,
  /**
   * Both ends proved who they are in the handshake; then both close TLS cleanly and the frames
   * travel in clear on the same connection, each request still carrying its access token. Someone
   * who can listen on the network sees the data, and someone who can inject into the connection can
   * change it: only for networks where neither is possible.
   */
  AUTHENTICATION;

  /** The protection {@code tessera.security.data-protection} names. */
  public static DataProtection of(Config config) {
    return config.get(SecurityConfigKeys.DATA_PROTECTION).equals("authentication")
        ? AUTHENTICATION
        : PRIVACY;
  }

  /** The setting's word for it. */
  public String word() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
