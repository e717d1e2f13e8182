package io.tessera.meta.registry;

import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.namespace.NamespaceException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Chooses the {@code k + m} data servers of a new file on the leader: only live servers with
 * room, the emptiest first, and the starting point rotating from file to file so that small
 * files spread over every server rather than piling on the same few.
 */
public final class PlacementPolicy {
  /** A server with less free space than this takes no new files. */
  private final long minFreeBytes;
  private final AtomicLong cursor = new AtomicLong();

  public PlacementPolicy(long minFreeBytes) {
    this.minFreeBytes = minFreeBytes;
  }

  public List<String> choose(List<HeartbeatRequestProto> live, LayoutPolicyProto policy) {
    int n = policy.getDataUnits() + policy.getParityUnits();
    List<HeartbeatRequestProto> candidates = new ArrayList<>();
    for (HeartbeatRequestProto s : live) {
      if (s.getFreeBytes() >= minFreeBytes) {
        candidates.add(s);
      }
    }
    if (candidates.size() < n) {
      throw new NamespaceException(StatusProto.NO_SPACE, "layout " + policy.getDataUnits() + "+"
          + policy.getParityUnits() + " needs " + n + " live data servers with free space; " + candidates.size()
          + " are available (check tessera cluster status, or create the file with a narrower layout)");
    }
    // Emptiest half first, then rotate within the candidates to spread consecutive files.
    candidates.sort(Comparator.comparingLong(HeartbeatRequestProto::getFreeBytes).reversed()
        .thenComparing(HeartbeatRequestProto::getServerId));
    int start = (int) Math.floorMod(cursor.getAndIncrement(), (long) candidates.size());
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(candidates.get((start + i) % candidates.size()).getServerId());
    }
    return out;
  }
}
