package io.tessera.meta.registry;

import io.tessera.common.cluster.Heartbeats;
import io.tessera.common.cluster.LearnedLimit;
import io.tessera.common.proto.DataServerProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.HeartbeatRequestProto;
import io.tessera.meta.state.ServerLiveness;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The data servers this replica knows of. Registrations are replicated (they come through the log);
 * liveness is this replica's own view of when it last heard a server. Only heartbeats that change
 * replicated state go through the log; the others reach the leader alone, so a replica that takes
 * over from a leader counts every server not found down as heard at that moment ({@link
 * #leaderChanged}) rather than placing no files until the servers find it.
 */
public final class DataServerRegistry implements ServerLiveness {
  private final Duration downAfter;
  private final Duration joinWindow;
  private final Map<String, Entry> servers = new ConcurrentHashMap<>();

  /** Per server, how long it may stay silent: longer for one that was late before and came back. */
  private final Map<String, LearnedLimit> allowances = new ConcurrentHashMap<>();

  /** When another replica became leader as far as this one knows (0: none, or this one leads). */
  private long otherLeaderSinceNanos;

  /** When this replica became leader (0: it does not lead). */
  private volatile long leadingSinceNanos;

  /** When a server this replica had never heard of first reported (0: none yet). */
  private volatile long lastJoinNanos;

  private String lastLeader;

  /**
   * {@code seenNanos}: when the server last counted as heard (a takeover credits every server);
   * {@code heardNanos}: when this replica last received its report, so {@code last} is that old.
   */
  private record Entry(HeartbeatRequestProto last, long seenNanos, long heardNanos) {}

  public DataServerRegistry(Duration downAfter) {
    this(downAfter, downAfter.dividedBy(5));
  }

  /**
   * @param downAfter how long a server may stay silent before it counts as down
   * @param joinWindow how long after a new server joined others may still be joining (servers
   *     started together report within about one heartbeat interval of each other)
   */
  public DataServerRegistry(Duration downAfter, Duration joinWindow) {
    this.downAfter = downAfter;
    this.joinWindow = joinWindow;
  }

  /** Loads registrations persisted in the namespace store; they count as down until heard from. */
  public void load(Map<String, HeartbeatRequestProto> registered) {
    long longAgo = System.nanoTime() - downAfter.toNanos() - 1;
    registered.forEach((id, hb) -> servers.putIfAbsent(id, new Entry(hb, longAgo, longAgo)));
  }

  /** Records a heartbeat; returns true when the registration (id to address) is new or changed. */
  @Override
  public boolean heartbeat(HeartbeatRequestProto hb) {
    long now = System.nanoTime();
    Entry old = servers.put(hb.getServerId(), new Entry(hb, now, now));
    if (old == null) {
      lastJoinNanos = now;
    } else {
      LearnedLimit allowance = allowance(hb.getServerId());
      long gap = now - old.heardNanos;
      if (gap < allowance.nanos()) { // late but never found down: a laggy server, not a dead one
        allowance.ended(gap, now);
      }
    }
    return old == null
        || !old.last.getAddress().equals(hb.getAddress())
        || !old.last.getProxyAddress().equals(hb.getProxyAddress());
  }

  /**
   * A leader change as this replica learns it. A replica that becomes leader after another one led
   * for a whole timeout counts every server in {@code notDown} as heard now: that leader was
   * hearing them, and would have found a silent one down. After a restart of the whole cluster, or
   * when the last leader led only briefly, it waits for their heartbeats instead.
   */
  public synchronized void leaderChanged(
      String leader, boolean self, Supplier<Collection<String>> notDown) {
    long now = System.nanoTime();
    if (self) {
      if (otherLeaderSinceNanos != 0 && now - otherLeaderSinceNanos >= downAfter.toNanos()) {
        // heard now, and given the time a server still asking the deposed leader takes to find
        // this one
        long credit = now + Heartbeats.FIND_LEADER_WINDOW.toNanos();
        for (String id : notDown.get()) {
          servers.computeIfPresent(
              id, (k, e) -> e.seenNanos - credit < 0 ? new Entry(e.last, credit, e.heardNanos) : e);
        }
      }
      otherLeaderSinceNanos = 0;
      if (leadingSinceNanos == 0) {
        leadingSinceNanos = now;
      }
    } else {
      leadingSinceNanos = 0;
      if (leader != null && !leader.equals(lastLeader)) {
        otherLeaderSinceNanos = now;
      }
    }
    if (leader != null) {
      lastLeader = leader;
    }
  }

  /** Forgets a removed server (a heartbeat from it later registers it as new). */
  @Override
  public void forget(String id) {
    servers.remove(id);
    allowances.remove(id);
  }

  /** Whether the server's last report says it serves clients (it heard it is UP). */
  public boolean reportsServing(String id) {
    Entry e = servers.get(id);
    return e != null && e.last.getServingState() == DataServerStateProto.UP;
  }

  /** Every registered server's id, heard from lately or not. */
  public List<String> known() {
    return new ArrayList<>(servers.keySet());
  }

  /**
   * Whether data servers may still be reporting to this replica: it leads since less than a
   * heartbeat timeout, so a server not heard from yet may well be alive.
   */
  public boolean reporting() {
    long since = leadingSinceNanos;
    return since == 0 || System.nanoTime() - since < downAfter.toNanos();
  }

  /**
   * Whether the cluster is still gathering its data servers: servers may still be reporting to this
   * leader, and one it had never heard of joined within the last half timeout (a fresh cluster's
   * servers start together). A new file's default layout is sized to the servers known, so it waits
   * for them rather than come out narrower than the cluster.
   */
  public boolean joining() {
    long joined = lastJoinNanos;
    return reporting() && joined != 0 && System.nanoTime() - joined < joinWindow.toNanos();
  }

  /**
   * Whether the server was heard from within its allowance: the timeout, or twice the longest
   * silence it ended by reporting again (a loaded machine starves a live server's heartbeats for
   * seconds), at most {@link #LAGGY_CEILING} timeouts.
   */
  public boolean isUp(String id) {
    Entry e = servers.get(id);
    return e != null && System.nanoTime() - e.seenNanos < allowance(id).nanos();
  }

  /** How many timeouts a server that was late before may stay silent at most. */
  static final int LAGGY_CEILING = 3;

  private LearnedLimit allowance(String id) {
    return allowances.computeIfAbsent(
        id, k -> new LearnedLimit(downAfter.toNanos(), LAGGY_CEILING * downAfter.toNanos()));
  }

  /** Milliseconds since the server's last applied heartbeat (-1: never heard of). */
  public long silentMillis(String id) {
    Entry e = servers.get(id);
    return e == null ? -1 : Math.max(0, System.nanoTime() - e.seenNanos) / 1_000_000;
  }

  public String address(String id) {
    Entry e = servers.get(id);
    return e == null ? null : e.last.getAddress();
  }

  /** The address of the QoS proxy in front of a server: empty for none, null when unknown. */
  public String proxyAddress(String id) {
    Entry e = servers.get(id);
    return e == null ? null : e.last.getProxyAddress();
  }

  /** Live servers with their last report, sorted by id. */
  public List<HeartbeatRequestProto> live() {
    List<HeartbeatRequestProto> out = new ArrayList<>();
    servers.forEach(
        (id, e) -> {
          if (isUp(id)) {
            out.add(e.last);
          }
        });
    out.sort((a, b) -> a.getServerId().compareTo(b.getServerId()));
    return out;
  }

  /**
   * What clients read and write on the live servers together, bytes per second, as their heartbeats
   * report it; empty while this replica leads and some live server has not reported since it took
   * over. A replica holds only the reports that went through the log (registrations, returns from
   * DOWN), often from before any client wrote, so until the first heartbeats reach a new leader it
   * does not know the load.
   */
  public OptionalLong clientBytesPerS() {
    long since = leadingSinceNanos;
    long sum = 0;
    for (Map.Entry<String, Entry> s : servers.entrySet()) {
      Entry e = s.getValue();
      if (!isUp(s.getKey())) {
        continue;
      }
      if (since != 0 && e.heardNanos - since < 0) {
        return OptionalLong.empty();
      }
      sum += e.last.getClientBytesPerS();
    }
    return OptionalLong.of(sum);
  }

  /**
   * Every known server, for status displays: DOWN when silent past the timeout, RECOVERING while
   * its last report says it still reads around itself (it has not heard it is up again), else UP.
   */
  public List<DataServerProto> describe() {
    long now = System.nanoTime();
    List<DataServerProto> out = new ArrayList<>();
    servers.forEach(
        (id, e) ->
            out.add(
                DataServerProto.newBuilder()
                    .setId(id)
                    .setAddress(e.last.getAddress())
                    .setProxyAddress(e.last.getProxyAddress())
                    .setState(
                        !isUp(id)
                            ? DataServerStateProto.DOWN
                            : e.last.getServingState() == DataServerStateProto.RECOVERING
                                ? DataServerStateProto.RECOVERING
                                : DataServerStateProto.UP)
                    .setCapacityBytes(e.last.getCapacityBytes())
                    .setFilesystem(e.last.getFilesystem())
                    .setFreeBytes(e.last.getFreeBytes())
                    .setUsedBytes(e.last.getUsedBytes())
                    .setClientBytesPerS(e.last.getClientBytesPerS())
                    .setClientRequestsPerS(e.last.getClientRequestsPerS())
                    .setLastHeartbeatMsAgo(Math.max(0, now - e.seenNanos) / 1_000_000)
                    .build()));
    out.sort((a, b) -> a.getId().compareTo(b.getId()));
    return out;
  }
}
