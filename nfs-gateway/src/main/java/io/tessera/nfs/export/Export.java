package io.tessera.nfs.export;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * One exported tree: a path of the namespace, the id its file handles carry ({@code fsid=}, else
 * derived from the path, so every gateway with the same exports gives the same handles), and who
 * may reach it.
 */
public record Export(String path, int id, List<ClientRule> rules) {
  /** The first rule covering this address, as {@code exportfs} applies them. */
  public Optional<ClientRule> ruleFor(InetAddress client) {
    return rules.stream().filter(r -> r.clients().matches(client)).findFirst();
  }

  /** Whether {@code p} (a normalised absolute path) is this export's root or lies under it. */
  public boolean covers(String p) {
    return path.equals("/") || p.equals(path) || p.startsWith(path + "/");
  }
}
