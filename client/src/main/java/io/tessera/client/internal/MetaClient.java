package io.tessera.client.internal;

import com.google.protobuf.ByteString;
import io.tessera.common.cluster.FollowerReads;
import io.tessera.common.proto.ActorProto;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.LeaderFollowingCaller;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.common.status.TesseraException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * meta.proto calls to the leader, with leader following, at-most-once changes, and reads through
 * elections.
 */
public final class MetaClient {
  private final LeaderFollowingCaller caller;
  private final CallerProto identity;
  private final AtomicLong callIds;

  /**
   * The newest namespace log position any answer has shown this client; {@link #NO_ANSWER_YET}
   * until the leader first answered, and meanwhile no other replica may answer its reads.
   */
  private final AtomicLong seenIndex;

  private static final long NO_ANSWER_YET = -1;

  /** The user a trusted proxy (an NFS gateway) acts for with this client, or null. */
  private final ActorProto onBehalfOf;

  private final boolean followerReads;

  /**
   * Who this client says it is (tessera.security=off, where the meta group takes it at its word);
   * with security the meta group ignores it and reads the caller's certificate. Null: say nothing.
   */
  private final ActorProto claimed;

  public MetaClient(
      RpcClientPool pool,
      List<String> replicas,
      Duration retryFor,
      CallerProto identity,
      boolean followerReads) {
    this(pool, replicas, retryFor, identity, followerReads, null);
  }

  public MetaClient(
      RpcClientPool pool,
      List<String> replicas,
      Duration retryFor,
      CallerProto identity,
      boolean followerReads,
      ActorProto claimed) {
    this.caller = new LeaderFollowingCaller(pool, replicas, Service.META, retryFor);
    this.identity = identity;
    this.followerReads = followerReads;
    this.claimed = claimed;
    this.callIds = new AtomicLong();
    this.seenIndex = new AtomicLong(NO_ANSWER_YET);
    this.onBehalfOf = null;
  }

  private MetaClient(MetaClient base, ActorProto onBehalfOf) {
    this.caller = base.caller;
    this.identity = base.identity;
    this.followerReads = base.followerReads;
    this.claimed = base.claimed;
    this.callIds = base.callIds; // one numbering: the meta group answers a retried call once
    this.seenIndex = base.seenIndex;
    this.onBehalfOf = onBehalfOf;
  }

  /**
   * The same client acting for {@code user}: the meta group checks and does its requests as that
   * user, if this client is a trusted proxy (an NFS gateway); anyone else is refused.
   */
  public MetaClient actingFor(ActorProto user) {
    return new MetaClient(this, user);
  }

  /**
   * Sends a request; a status other than OK fails the future with a {@link TesseraException}. A
   * lookup or listing the leader cannot answer (it died; an election is under way) may be answered
   * by another replica from its own state, once that replica has applied everything this client has
   * seen: everything acknowledged before this client's first answer (a script's {@code fs mkdir}
   * then {@code fs put} into it), this client's own changes and everything it read stay visible,
   * while another client's change acknowledged during this client's life, in the leader's last
   * moments, may show only once the election is over (at most the election timeout).
   */
  public CompletableFuture<MetaResponseProto> call(MetaRequestProto.Builder request) {
    if (claimed != null && !request.hasActor()) {
      request.setActor(claimed);
    }
    if (onBehalfOf != null) {
      request.setOnBehalfOf(onBehalfOf);
    }
    MetaRequestProto req = request.setCaller(identity).setCallId(callIds.incrementAndGet()).build();
    Function<String, byte[]> followerRead = retryWithoutLeader(req);
    return caller
        .call(
            req.toByteArray(),
            followerRead,
            MetaResponseProto::parseFrom,
            r ->
                new LeaderFollowingCaller.Outcome(r.getStatus(), r.getLeaderHint(), r.getMessage()))
        .thenApply(
            r -> {
              // the first answer that names a position is the leader's (a cluster status from a
              // replica names none): all it had applied is this client's floor
              seenIndex.accumulateAndGet(
                  Math.max(r.getIndex(), r.getAppliedIndex()),
                  (seen, newest) ->
                      seen == NO_ANSWER_YET
                          ? (newest == 0 ? NO_ANSWER_YET : newest)
                          : Math.max(seen, r.getIndex()));
              if (r.getStatus() != StatusProto.OK) {
                throw new CompletionException(TesseraException.of(r.getStatus(), r.getMessage()));
              }
              return r;
            });
  }

  /**
   * What to send once the leader could not be reached or none was known (null: the request as it
   * is): a cluster status any replica may answer with its own view; a lookup or listing another
   * replica may answer from its state once it has what this client has seen.
   */
  private Function<String, byte[]> retryWithoutLeader(MetaRequestProto req) {
    if (req.getOpCase() == MetaRequestProto.OpCase.CLUSTER_STATUS) {
      return unreachable -> req.toBuilder().setFollowerReadOk(true).build().toByteArray();
    }
    if (!followerReads || !FollowerReads.answerable(req) || seenIndex.get() == NO_ANSWER_YET) {
      return null;
    }
    return unreachable ->
        req.toBuilder()
            .setFollowerReadOk(true)
            .setUnreachableLeader(unreachable)
            .setSeenIndex(seenIndex.get())
            .build()
            .toByteArray();
  }

  public static CallerProto identity(byte[] clientId, String appId) {
    return CallerProto.newBuilder()
        .setClientId(ByteString.copyFrom(clientId))
        .setAppId(appId)
        .build();
  }
}
