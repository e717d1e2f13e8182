package io.tessera.data.server;

import io.tessera.common.config.Config;
import io.tessera.common.rpc.HostPort;
import java.util.Set;

/**
 * What the meta group tells clients to reach a data server at: {@code
 * tessera.data.advertised-address} where the server listens somewhere clients cannot name (every
 * address, a container's, behind NAT), else where it listens.
 *
 * @param host the host clients connect to
 * @param port the port they connect to; null: the port the server listens on
 */
record AdvertisedAddress(String host, Integer port) {
  private static final Set<String> EVERY_ADDRESS = Set.of("0.0.0.0", "::", "[::]", "*");

  /**
   * The address {@code config} asks to be announced at.
   *
   * @throws IllegalArgumentException for a malformed address, or none while the server listens on
   *     every address (there is nothing a client could connect to)
   */
  static AdvertisedAddress of(Config config) {
    String given = config.get(DataServerConfigKeys.Server.ADVERTISED_ADDRESS).trim();
    String bind = config.get(DataServerConfigKeys.Server.BIND_HOST).trim();
    if (given.isEmpty()) {
      if (EVERY_ADDRESS.contains(bind)) {
        throw new IllegalArgumentException(
            DataServerConfigKeys.Server.BIND_HOST.key()
                + "="
                + bind
                + " listens on every address but names none a client can reach: give the address"
                + " clients use with --advertise HOST[:PORT] ("
                + DataServerConfigKeys.Server.ADVERTISED_ADDRESS.key()
                + ")");
      }
      return new AdvertisedAddress(bind, null);
    }
    // HOST:PORT has one colon, or a bracketed IPv6 literal before it; a bare IPv6 literal is a host
    boolean hasPort =
        given.startsWith("[") ? given.contains("]:") : given.indexOf(':') == given.lastIndexOf(':');
    if (!hasPort || given.indexOf(':') < 0) {
      return new AdvertisedAddress(given.replaceAll("^\\[|\\]$", ""), null);
    }
    try {
      HostPort at = HostPort.parse(given);
      return new AdvertisedAddress(at.host(), at.port());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          DataServerConfigKeys.Server.ADVERTISED_ADDRESS.key() + ": " + e.getMessage());
    }
  }

  /** The address to announce, for a server listening on {@code boundPort}. */
  String address(int boundPort) {
    return new HostPort(host, port == null ? boundPort : port).toString();
  }
}
