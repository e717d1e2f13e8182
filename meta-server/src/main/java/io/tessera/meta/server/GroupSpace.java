package io.tessera.meta.server;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.platform.DaemonTimer;
import io.tessera.common.platform.SpaceGuard;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.ReplicaSpaceProto;
import io.tessera.common.proto.ReplicaSpaceRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.meta.ratis.RaftSubmitter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.ratis.protocol.RaftPeer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Room for the Raft log across the meta group. Every replica appends every change, so a change that
 * adds must wait while any replica is short of room, not only the leader: a follower whose log
 * append fails on a full disk stops (as etcd raises its NOSPACE alarm for any member). The leader
 * asks the others every second; a replica it cannot reach holds nothing up (it is not appending
 * either), and one that answered more than {@link #FRESH_MS} ago is forgotten.
 */
final class GroupSpace implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupSpace.class);
  private static final long ASK_EVERY_MS = 1000;
  private static final long FRESH_MS = 5000;

  private record Heard(ReplicaSpaceProto space, long atNanos) {}

  private final String selfId;
  private final SpaceGuard own;
  private final RaftSubmitter raft;
  private final RpcClientPool peers;
  private final Map<String, Heard> heard = new ConcurrentHashMap<>();
  private final ScheduledExecutorService timer = DaemonTimer.named("group-space");

  GroupSpace(String selfId, SpaceGuard own, RaftSubmitter raft, RpcClientPool peers) {
    this.selfId = selfId;
    this.own = own;
    this.raft = raft;
    this.peers = peers;
  }

  void start() {
    timer.scheduleWithFixedDelay(this::ask, ASK_EVERY_MS, ASK_EVERY_MS, TimeUnit.MILLISECONDS);
  }

  /** This replica's own answer to the leader. */
  MetaResponseProto answer() {
    String refusal = own.reserve(0);
    return MetaResponseProto.newBuilder()
        .setStatus(StatusProto.OK)
        .setReplicaSpace(
            ReplicaSpaceProto.newBuilder()
                .setReplica(selfId)
                .setFreeBytes(own.freeBytes())
                .setRefusal(refusal == null ? "" : refusal))
        .build();
  }

  /**
   * Why a change that adds must wait (this replica's disk, or another's as last heard), or null
   * when every replica has room.
   */
  String refusal() {
    String mine = own.reserve(0);
    if (mine != null) {
      return mine;
    }
    long now = System.nanoTime();
    for (Heard h : heard.values()) {
      if (now - h.atNanos() < TimeUnit.MILLISECONDS.toNanos(FRESH_MS)
          && !h.space().getRefusal().isEmpty()) {
        return h.space().getRefusal() + " (a replica that stops for a full disk stops its vote)";
      }
    }
    return null;
  }

  private void ask() {
    if (!raft.isLeader()) {
      heard.clear(); // the next leader asks afresh
      return;
    }
    byte[] request =
        MetaRequestProto.newBuilder()
            .setReplicaSpace(ReplicaSpaceRequestProto.getDefaultInstance())
            .build()
            .toByteArray();
    for (RaftPeer p : raft.peers()) {
      String id = p.getId().toString();
      if (id.equals(selfId)) {
        continue;
      }
      peers
          .call(p.getClientAddress(), Service.META, request, null)
          .orTimeout(FRESH_MS, TimeUnit.MILLISECONDS)
          .whenComplete(
              (frame, err) -> {
                if (err != null) {
                  heard.remove(id);
                  return;
                }
                try {
                  MetaResponseProto r = MetaResponseProto.parseFrom(frame.header());
                  if (r.hasReplicaSpace()) {
                    noteChange(id, r.getReplicaSpace());
                    heard.put(id, new Heard(r.getReplicaSpace(), System.nanoTime()));
                  }
                } catch (InvalidProtocolBufferException e) {
                  heard.remove(id);
                } finally {
                  frame.payload().release();
                }
              });
    }
  }

  /** One line when a replica runs short of room or has room again. */
  private void noteChange(String id, ReplicaSpaceProto now) {
    Heard before = heard.get(id);
    boolean wasShort = before != null && !before.space().getRefusal().isEmpty();
    boolean isShort = !now.getRefusal().isEmpty();
    if (isShort && !wasShort) {
      LOG.warn("Changes that add wait: {}", now.getRefusal());
    } else if (wasShort && !isShort) {
      LOG.info("Meta replica {} has room again: changes that add go on", id);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
