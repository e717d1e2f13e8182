package io.tessera.meta.ratis;

import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.proto.RaftProtos.RoleInfoProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientAsynchronousProtocol;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;

/**
 * Hands requests to the local Ratis server directly (no client hop): writes become log entries,
 * reads go through Ratis's linearizable read path before the state machine's query.
 *
 * <p>Requests go to the group's division on the calling thread. Through {@link
 * RaftServer#submitClientRequestAsync} each would first be handed to Ratis's client-request pool
 * while the caller waits for it: one more thread hand-off per change and per read, which on a small
 * machine costs about as much as the submission itself.
 */
public final class RaftSubmitter {
  private final RaftServer server;
  private final RaftGroupId groupId;
  private final ClientId clientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();

  /**
   * The group's division once this server has it, when it takes requests on the caller's thread.
   */
  private volatile RaftClientAsynchronousProtocol division;

  public RaftSubmitter(RaftServer server, RaftGroupId groupId) {
    this.server = server;
    this.groupId = groupId;
  }

  /** The client id every request of this submitter carries. */
  public ClientId clientId() {
    return clientId;
  }

  public CompletableFuture<RaftClientReply> write(byte[] entry) {
    return submit(entry, RaftClientRequest.writeRequestType());
  }

  public CompletableFuture<RaftClientReply> read(byte[] query) {
    return submit(query, RaftClientRequest.readRequestType());
  }

  /**
   * A read from this replica's own state, which must have applied {@code minIndex}; any replica
   * answers, leader or not (fails with a {@code StaleReadException} when it is further behind).
   */
  public CompletableFuture<RaftClientReply> staleRead(byte[] query, long minIndex) {
    return submit(query, RaftClientRequest.staleReadRequestType(minIndex));
  }

  private CompletableFuture<RaftClientReply> submit(byte[] body, RaftClientRequest.Type type) {
    RaftClientRequest request =
        RaftClientRequest.newBuilder()
            .setClientId(clientId)
            .setServerId(server.getId())
            .setGroupId(groupId)
            .setCallId(callIds.incrementAndGet())
            .setType(type)
            .setMessage(LogBytes.message(body))
            .build();
    try {
      return submitter().submitClientRequestAsync(request);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private RaftClientAsynchronousProtocol submitter() {
    RaftClientAsynchronousProtocol d = division;
    if (d != null) {
      return d;
    }
    try {
      if (server.getDivision(groupId) instanceof RaftClientAsynchronousProtocol direct) {
        division = direct;
        return direct;
      }
    } catch (IOException notYet) {
      // the group is still starting: the server answers (or fails the request) itself
    }
    return server;
  }

  private DivisionInfo info() {
    try {
      return server.getDivision(groupId).getInfo();
    } catch (IOException e) {
      return null;
    }
  }

  /** The Raft term this replica is in (0 while its division is not up). */
  public long term() {
    DivisionInfo i = info();
    return i == null ? 0 : i.getCurrentTerm();
  }

  /** Whether this replica knows a leader that is not itself. */
  public boolean followsAnotherLeader() {
    DivisionInfo i = info();
    return i != null && !i.isLeader() && i.getLeaderId() != null;
  }

  /**
   * Whether this replica leads, or heard from a leader within twice the longest election timeout.
   * Past that it is cut off from the group (or the group lost its majority), and its state may be
   * older than anything another replica has acknowledged since.
   */
  public boolean heardFromLeaderLately() {
    DivisionInfo i = info();
    if (i == null) {
      return false;
    }
    if (i.isLeader()) {
      return true;
    }
    RoleInfoProto r = i.getRoleInfoProto();
    long sinceMs =
        switch (r.getRole()) {
          case FOLLOWER -> r.getFollowerInfo().getLeaderInfo().getLastRpcElapsedTimeMs();
          case CANDIDATE -> r.getCandidateInfo().getLastLeaderElapsedTimeMs();
          default -> Long.MAX_VALUE;
        };
    long windowMs =
        2
            * RaftServerConfigKeys.Rpc.timeoutMax(server.getProperties())
                .toLong(TimeUnit.MILLISECONDS);
    return sinceMs <= windowMs;
  }

  public boolean isLeader() {
    DivisionInfo i = info();
    return i != null && i.isLeader() && i.isLeaderReady();
  }

  /**
   * Whether this replica won an election but has not yet applied the entries before its term, so it
   * may not answer as leader yet.
   */
  public boolean isElectedNotReady() {
    DivisionInfo i = info();
    return i != null && i.isLeader() && !i.isLeaderReady();
  }

  /** The client address of the current leader as this replica knows it, or null. */
  public String leaderClientAddress() {
    DivisionInfo i = info();
    if (i == null || i.getLeaderId() == null) {
      return null;
    }
    return clientAddressOf(i.getLeaderId());
  }

  public String leaderId() {
    DivisionInfo i = info();
    return i == null || i.getLeaderId() == null ? null : i.getLeaderId().toString();
  }

  public String clientAddressOf(RaftPeerId id) {
    for (RaftPeer p : peers()) {
      if (p.getId().equals(id)) {
        return p.getClientAddress();
      }
    }
    return null;
  }

  /**
   * How long ago this replica, as leader, last heard from each follower (by peer id); empty when it
   * does not lead.
   */
  public Map<String, Long> followerContactMillisAgo() {
    Map<String, Long> out = new HashMap<>();
    DivisionInfo i = info();
    if (i == null || !i.isLeader()) {
      return out;
    }
    for (var f : i.getRoleInfoProto().getLeaderInfo().getFollowerInfoList()) {
      out.put(f.getId().getId().toStringUtf8(), f.getLastRpcElapsedTimeMs());
    }
    return out;
  }

  public Collection<RaftPeer> peers() {
    try {
      return server.getDivision(groupId).getRaftConf().getAllPeers();
    } catch (IOException e) {
      return List.of();
    }
  }
}
