package io.tessera.hadoop;

import io.tessera.client.FileStatus;
import io.tessera.client.admin.ClusterAdmin;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.layout.StripeLayout;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;

/**
 * Hadoop blocks from a striped layout, so schedulers place tasks beside the data: a block is one
 * stripe's data bytes, and its hosts are the data servers holding that stripe's data units (where a
 * healthy read goes). A log file's bytes sit in its writers' logs, spread over every server: it is
 * one block on no particular host.
 */
final class BlockLocations {
  private static final long ADDRESSES_TTL_NANOS = 5_000_000_000L;

  private final ClusterAdmin admin;
  private Map<String, String> addresses = Map.of();
  private long addressesAt;

  BlockLocations(ClusterAdmin admin) {
    this.admin = admin;
  }

  BlockLocation[] of(FileStatus s, long start, long len) throws IOException {
    StripeLayout layout = s.layout();
    long end = Math.min(s.size(), start + len);
    if (layout == null) {
      return new BlockLocation[] {
        new BlockLocation(new String[0], new String[] {"localhost"}, 0, s.size())
      };
    }
    Map<String, String> byId = addresses();
    long width = layout.stripeDataBytes();
    List<BlockLocation> out = new ArrayList<>();
    for (long stripe = start / width; stripe * width < end; stripe++) {
      Set<String> names = new LinkedHashSet<>();
      Set<String> hosts = new LinkedHashSet<>();
      for (int u = 0; u < layout.dataUnits(); u++) {
        String address = byId.get(layout.serverOf(stripe, u));
        if (address != null) {
          names.add(address);
          hosts.add(address.substring(0, Math.max(0, address.lastIndexOf(':'))));
        }
      }
      long offset = stripe * width;
      out.add(
          new BlockLocation(
              names.toArray(new String[0]),
              hosts.toArray(new String[0]),
              offset,
              Math.min(width, s.size() - offset)));
    }
    return out.toArray(new BlockLocation[0]);
  }

  /** Data server id to host:port, from the cluster's status, kept a few seconds. */
  private synchronized Map<String, String> addresses() throws IOException {
    long now = System.nanoTime();
    if (addresses.isEmpty() || now - addressesAt > ADDRESSES_TTL_NANOS) {
      Map<String, String> m = new HashMap<>();
      for (ClusterStatus.DataServer d : admin.status().dataServers()) {
        m.put(d.id(), d.address());
      }
      addresses = m;
      addressesAt = now;
    }
    return addresses;
  }
}
