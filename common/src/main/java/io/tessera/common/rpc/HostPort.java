package io.tessera.common.rpc;

import java.net.InetSocketAddress;

/** A host:port address as written in configuration ([::1]:9000 for IPv6). */
public record HostPort(String host, int port) {
  public static HostPort parse(String s) {
    if (s == null || s.isBlank()) {
      throw new IllegalArgumentException("empty address: expected host:port");
    }
    String t = s.trim();
    int colon = t.lastIndexOf(':');
    if (colon <= 0 || colon == t.length() - 1) {
      throw new IllegalArgumentException("address '" + s + "' is not host:port");
    }
    String host = t.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    int port;
    try {
      port = Integer.parseInt(t.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("address '" + s + "' has a port that is not a number");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException(
          "address '" + s + "' has port " + port + " outside 1-65535");
    }
    return new HostPort(host, port);
  }

  public InetSocketAddress toSocketAddress() {
    return new InetSocketAddress(host, port);
  }

  @Override
  public String toString() {
    return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
  }
}
