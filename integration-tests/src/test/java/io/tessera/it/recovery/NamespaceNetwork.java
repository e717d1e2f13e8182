package io.tessera.it.recovery;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * A test network of its own: one network namespace per host (a server, or a client program), all on
 * one bridge (inside a "switch" namespace), addresses 10.231.0.0/24; this process reaches them
 * through one veth at 10.231.0.1. A partition is made of blackhole routes inside the hosts'
 * namespaces, a lossy link of nftables rules in a host's namespace (nothing outside the namespaces
 * it created changes); {@link #heal} removes both. Needs root.
 */
final class NamespaceNetwork implements AutoCloseable {
  static final String CLIENT_IP = "10.231.0.1";

  /** This process, the client host, as a side of a {@link #cut}. */
  static final String THIS_HOST = "this-host";

  private static final String PREFIX = "tsp";
  private static final String LOSS_TABLE = "tessera_loss";
  private final Map<String, String> ips = new LinkedHashMap<>();

  private final List<String[]> partitionRoutes = new ArrayList<>();
  private final List<String> lossyHosts = new ArrayList<>();

  /** Whether this machine lets the test make namespaces (root, iproute2). */
  static boolean available() {
    try {
      run(false, "ip", "netns", "add", PREFIX + "-probe");
      boolean ok = run(false, "ip", "netns", "list").contains(PREFIX + "-probe");
      run(false, "ip", "netns", "del", PREFIX + "-probe");
      return ok;
    } catch (IOException e) {
      return false;
    }
  }

  /** Creates a namespace per server id, each with the next address. */
  NamespaceNetwork(List<String> ids) throws IOException {
    cleanUp();
    String sw = PREFIX + "-sw";
    run(true, "ip", "netns", "add", sw);
    run(true, "ip", "-n", sw, "link", "add", "br0", "type", "bridge");
    run(true, "ip", "-n", sw, "link", "set", "br0", "up");
    link("tspc", "tspcb", null, CLIENT_IP);
    int host = 10;
    for (String id : ids) {
      String ip = "10.231.0." + host++;
      ips.put(id, ip);
      run(true, "ip", "netns", "add", namespace(id));
      run(true, "ip", "-n", namespace(id), "link", "set", "lo", "up");
      String n = String.valueOf(host);
      link("tsv" + n, "tsb" + n, namespace(id), ip);
    }
  }

  /**
   * Connects a veth pair to the bridge: {@code inner} in {@code ns} (null: this namespace) gets
   * {@code ip}.
   */
  private static void link(String inner, String outer, String ns, String ip) throws IOException {
    String sw = PREFIX + "-sw";
    run(true, "ip", "link", "add", inner, "type", "veth", "peer", "name", outer);
    run(true, "ip", "link", "set", outer, "netns", sw);
    run(true, "ip", "-n", sw, "link", "set", outer, "master", "br0");
    run(true, "ip", "-n", sw, "link", "set", outer, "up");
    if (ns != null) {
      run(true, "ip", "link", "set", inner, "netns", ns);
      run(true, "ip", "-n", ns, "addr", "add", ip + "/24", "dev", inner);
      run(true, "ip", "-n", ns, "link", "set", inner, "up");
    } else {
      run(true, "ip", "addr", "add", ip + "/24", "dev", inner);
      run(true, "ip", "link", "set", inner, "up");
    }
  }

  static String namespace(String id) {
    return PREFIX + "-" + id;
  }

  String ip(String id) {
    return ips.get(id);
  }

  Map<String, String> hosts() {
    return Map.copyOf(ips);
  }

  /** The command prefix that runs a server in its namespace (keeps the process id). */
  List<String> wrapper(String id) {
    return List.of("ip", "netns", "exec", namespace(id));
  }

  /**
   * Cuts {@code island} off from every other server and from this process; the servers of the
   * island still reach each other.
   */
  void partition(Set<String> island) throws IOException {
    for (String a : ips.keySet()) {
      for (String b : ips.keySet()) {
        if (island.contains(a) != island.contains(b)) {
          blackhole(a, ips.get(b));
        }
      }
      if (island.contains(a)) {
        blackhole(a, CLIENT_IP);
      }
    }
  }

  /**
   * Cuts every host of {@code a} off from every host of {@code b}, both ways; either may hold
   * {@link #THIS_HOST} (its routes are set on the other side, so this namespace stays as it was).
   */
  void cut(Set<String> a, Set<String> b) throws IOException {
    for (String x : a) {
      for (String y : b) {
        if (!x.equals(THIS_HOST)) {
          blackhole(x, address(y));
        }
        if (!y.equals(THIS_HOST)) {
          blackhole(y, address(x));
        }
      }
    }
  }

  private String address(String host) {
    return host.equals(THIS_HOST) ? CLIENT_IP : ips.get(host);
  }

  /**
   * Makes {@code id}'s link to everything else drop {@code percent} % of the packets each way, at
   * random, as a flapping cable or port does: an nftables table in its namespace, deleted by {@link
   * #heal}.
   */
  void lossy(String id, int percent) throws IOException {
    nft(true, id, "add table inet " + LOSS_TABLE);
    for (String[] hook :
        new String[][] {{"in", "input", "iifname"}, {"out", "output", "oifname"}}) {
      String chain = "inet " + LOSS_TABLE + " " + hook[0];
      nft(true, id, "add chain " + chain + " { type filter hook " + hook[1] + " priority 0; }");
      nft(
          true,
          id,
          "add rule "
              + chain
              + " "
              + hook[2]
              + " != lo numgen random mod 100 < "
              + percent
              + " drop");
    }
    lossyHosts.add(id);
  }

  /** Runs one nft command (its words in one string) in {@code id}'s namespace. */
  private static void nft(boolean check, String id, String command) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", namespace(id), "nft"));
    cmd.addAll(List.of(command.split(" ")));
    run(check, cmd.toArray(String[]::new));
  }

  private void blackhole(String from, String to) throws IOException {
    String[] route = {"ip", "-n", namespace(from), "route", "add", "blackhole", to + "/32"};
    run(true, route);
    partitionRoutes.add(route);
  }

  /** Removes every partition route and lossy queue. */
  void heal() throws IOException {
    for (String[] r : partitionRoutes) {
      String[] del = r.clone();
      del[4] = "del";
      run(false, del);
    }
    partitionRoutes.clear();
    for (String id : lossyHosts) {
      nft(false, id, "delete table inet " + LOSS_TABLE);
    }
    lossyHosts.clear();
  }

  @Override
  public void close() throws IOException {
    cleanUp();
  }

  private static void cleanUp() throws IOException {
    run(false, "ip", "link", "del", "tspc");
    for (String line : run(false, "ip", "netns", "list").split("\n")) {
      String ns = line.split(" ")[0].trim();
      if (ns.startsWith(PREFIX + "-")) {
        run(false, "ip", "netns", "del", ns);
      }
    }
  }

  /** Runs a command; with {@code check}, a non-zero exit throws with its output. */
  private static String run(boolean check, String... cmd) throws IOException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    try {
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", cmd) + ": no answer within 30 s");
      }
      if (check && p.exitValue() != 0) {
        throw new IOException(
            String.join(" ", cmd) + " failed (" + p.exitValue() + "): " + out.trim());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }
}
