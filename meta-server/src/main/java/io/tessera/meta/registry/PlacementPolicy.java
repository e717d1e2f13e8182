package io.tessera.meta.registry;

import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.common.proto.LayoutPolicyProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.meta.state.NamespaceException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Chooses the {@code k + m} data servers of a new file on the leader: live servers with room, the
 * emptiest first, the starting point rotating from file to file so that small files spread over
 * every server rather than piling on the same few. When fewer are live, a file with parity is still
 * created while {@code k + liveBeyondK} of its units can go to live servers (as Ceph writes above
 * {@code min_size}): the others go to registered servers that are down, stale from the start, and
 * recovery rebuilds them when those servers return or are replaced.
 */
public final class PlacementPolicy {
  /**
   * The servers chosen, in unit order, and those among them that are down (stale from the start).
   */
  public record Placement(List<String> servers, List<String> staleFromStart) {}

  /** A server with less free space than this takes no new files. */
  private final long minFreeBytes;

  private final int liveBeyondK;
  private final AtomicLong cursor = new AtomicLong();

  public PlacementPolicy(long minFreeBytes, int liveBeyondK) {
    if (liveBeyondK < 0) {
      throw new IllegalArgumentException(
          "live units beyond k must be 0 or more; got " + liveBeyondK);
    }
    this.minFreeBytes = minFreeBytes;
    this.liveBeyondK = liveBeyondK;
  }

  /**
   * @param live servers heard from lately that take new files
   * @param down registered servers that take new files but are not heard from now
   * @param reporting whether servers may still be reporting to this leader (it took over or started
   *     within a heartbeat timeout): too few of them is then "retry shortly", not "no space"
   */
  public Placement choose(
      List<HeartbeatRequestProto> live,
      List<String> down,
      LayoutPolicyProto policy,
      boolean reporting) {
    int k = policy.getDataUnits();
    int n = k + policy.getParityUnits();
    List<HeartbeatRequestProto> candidates = new ArrayList<>();
    for (HeartbeatRequestProto s : live) {
      if (s.getFreeBytes() >= minFreeBytes) {
        candidates.add(s);
      }
    }
    int liveNeeded = policy.getParityUnits() == 0 ? n : Math.min(n, k + liveBeyondK);
    int fromDown = Math.max(0, n - candidates.size());
    if (candidates.size() < liveNeeded || fromDown > down.size()) {
      String layout = "layout " + k + "+" + policy.getParityUnits();
      String what =
          candidates.size() + down.size() < n
              ? layout
                  + " needs "
                  + n
                  + " data servers; the cluster has "
                  + (candidates.size() + down.size())
                  + " with free space that take new files"
              : layout
                  + " needs "
                  + (liveNeeded == n ? "all " + n : "at least " + liveNeeded + " of its " + n)
                  + " data servers live with free space; "
                  + candidates.size()
                  + " are ("
                  + down.size()
                  + " down)";
      if (reporting) {
        throw new NamespaceException(
            StatusProto.UNAVAILABLE,
            what + ": data servers are still reporting to the meta" + " leader; retry shortly");
      }
      throw new NamespaceException(
          StatusProto.NO_SPACE,
          what + " (check tessera cluster status, or create the file" + " with a narrower layout)");
    }
    // Emptiest half first, then rotate within the candidates to spread consecutive files.
    candidates.sort(
        Comparator.comparingLong(HeartbeatRequestProto::getFreeBytes)
            .reversed()
            .thenComparing(HeartbeatRequestProto::getServerId));
    long turn = cursor.getAndIncrement();
    int start = (int) Math.floorMod(turn, (long) candidates.size());
    List<String> out = new ArrayList<>(n);
    for (int i = 0; i < n - fromDown; i++) {
      out.add(candidates.get((start + i) % candidates.size()).getServerId());
    }
    List<String> stale = new ArrayList<>();
    List<String> sortedDown = down.stream().sorted().toList();
    for (int i = 0; i < fromDown; i++) {
      stale.add(sortedDown.get((int) Math.floorMod(turn + i, (long) sortedDown.size())));
    }
    out.addAll(stale);
    return new Placement(out, stale);
  }
}
