package io.tessera.nfs.export;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Which client addresses an export rule covers: {@code *}, one address, or a CIDR block ({@code
 * 10.0.0.0/8}, {@code fd00::/8}). Host names are refused: a gateway should not depend on DNS to
 * decide who may write.
 */
public record AddressMatch(byte[] network, int prefixBits, String text) {
  public static AddressMatch parse(String text) {
    if (text.equals("*")) {
      return new AddressMatch(null, 0, text);
    }
    int slash = text.indexOf('/');
    String host = slash < 0 ? text : text.substring(0, slash);
    if (!host.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
      throw new IllegalArgumentException(
          "client '"
              + text
              + "' is not an address, a CIDR block or * (host names are not looked up)");
    }
    byte[] addr;
    try {
      addr = InetAddress.getByName(host).getAddress();
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("client '" + text + "' is not an address");
    }
    int bits = addr.length * 8;
    if (slash >= 0) {
      try {
        bits = Integer.parseInt(text.substring(slash + 1));
      } catch (NumberFormatException e) {
        bits = -1;
      }
      if (bits < 0 || bits > addr.length * 8) {
        throw new IllegalArgumentException(
            "client '" + text + "': the prefix length must be 0 to " + addr.length * 8);
      }
    }
    return new AddressMatch(addr, bits, text);
  }

  public boolean matches(InetAddress client) {
    if (network == null) {
      return true;
    }
    byte[] a = client.getAddress();
    if (a.length == 16 && network.length == 4 && isMappedV4(a)) {
      a = java.util.Arrays.copyOfRange(a, 12, 16);
    }
    if (a.length != network.length) {
      return false;
    }
    int full = prefixBits / 8;
    for (int i = 0; i < full; i++) {
      if (a[i] != network[i]) {
        return false;
      }
    }
    int rest = prefixBits % 8;
    if (rest == 0) {
      return true;
    }
    int mask = (0xff << (8 - rest)) & 0xff;
    return (a[full] & mask) == (network[full] & mask);
  }

  private static boolean isMappedV4(byte[] a) {
    for (int i = 0; i < 10; i++) {
      if (a[i] != 0) {
        return false;
      }
    }
    return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
  }
}
