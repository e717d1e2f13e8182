package io.tessera.client.internal;

import com.google.protobuf.ByteString;
import io.tessera.common.cluster.FollowerReads;
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
  private final AtomicLong callIds = new AtomicLong();

  /** The newest namespace log position any answer has shown this client. */
  private final AtomicLong seenIndex = new AtomicLong();

  private final boolean followerReads;

  public MetaClient(
      RpcClientPool pool,
      List<String> replicas,
      Duration retryFor,
      CallerProto identity,
      boolean followerReads) {
    this.caller = new LeaderFollowingCaller(pool, replicas, Service.META, retryFor);
    this.identity = identity;
    this.followerReads = followerReads;
  }

  /**
   * Sends a request; a status other than OK fails the future with a {@link TesseraException}. A
   * lookup or listing the leader cannot answer (it died; an election is under way) may be answered
   * by another replica from its own state, once that replica has applied everything this client has
   * seen: this client's own changes and everything it read stay visible, while another client's
   * change acknowledged in the leader's last moments may show only once the election is over (at
   * most the election timeout).
   */
  public CompletableFuture<MetaResponseProto> call(MetaRequestProto.Builder request) {
    MetaRequestProto req = request.setCaller(identity).setCallId(callIds.incrementAndGet()).build();
    Function<String, byte[]> followerRead =
        !followerReads || !FollowerReads.answerable(req)
            ? null
            : unreachable ->
                req.toBuilder()
                    .setFollowerReadOk(true)
                    .setUnreachableLeader(unreachable)
                    .setSeenIndex(seenIndex.get())
                    .build()
                    .toByteArray();
    return caller
        .call(
            req.toByteArray(),
            followerRead,
            MetaResponseProto::parseFrom,
            r ->
                new LeaderFollowingCaller.Outcome(r.getStatus(), r.getLeaderHint(), r.getMessage()))
        .thenApply(
            r -> {
              seenIndex.accumulateAndGet(r.getIndex(), Math::max);
              if (r.getStatus() != StatusProto.OK) {
                throw new CompletionException(TesseraException.of(r.getStatus(), r.getMessage()));
              }
              return r;
            });
  }

  public static CallerProto identity(byte[] clientId, String appId) {
    return CallerProto.newBuilder()
        .setClientId(ByteString.copyFrom(clientId))
        .setAppId(appId)
        .build();
  }
}
