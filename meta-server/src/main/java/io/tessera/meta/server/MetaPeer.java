package io.tessera.meta.server;

import io.tessera.common.rpc.HostPort;
import java.util.ArrayList;
import java.util.List;

/**
 * A meta replica as named on command lines: {@code id=host:clientPort:raftPort}, for example {@code
 * m1=127.0.0.1:9860:9861}.
 */
public record MetaPeer(String id, String host, int clientPort, int raftPort) {

  public static MetaPeer parse(String spec) {
    int eq = spec.indexOf('=');
    String[] parts = eq < 0 ? new String[0] : spec.substring(eq + 1).split(":");
    if (eq <= 0 || parts.length != 3) {
      throw new IllegalArgumentException(
          "meta peer '"
              + spec
              + "' is not id=host:clientPort:raftPort"
              + " (for example m1=127.0.0.1:9860:9861)");
    }
    HostPort client = HostPort.parse(parts[0] + ":" + parts[1]);
    HostPort raft = HostPort.parse(parts[0] + ":" + parts[2]);
    return new MetaPeer(spec.substring(0, eq).trim(), client.host(), client.port(), raft.port());
  }

  public static List<MetaPeer> parseList(String specs) {
    List<MetaPeer> out = new ArrayList<>();
    for (String s : specs.split(",")) {
      if (!s.isBlank()) {
        out.add(parse(s.trim()));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException(
          "no meta peers given: --peers id=host:clientPort:raftPort,...");
    }
    return out;
  }

  public String clientAddress() {
    return new HostPort(host, clientPort).toString();
  }

  public String raftAddress() {
    return new HostPort(host, raftPort).toString();
  }

  @Override
  public String toString() {
    return id + "=" + host + ":" + clientPort + ":" + raftPort;
  }
}
