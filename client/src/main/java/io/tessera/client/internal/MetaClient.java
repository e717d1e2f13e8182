package io.tessera.client.internal;

import com.google.protobuf.ByteString;
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
import java.util.concurrent.atomic.AtomicLong;

/** meta.proto calls to the leader, with leader following and at-most-once changes. */
public final class MetaClient {
  private final LeaderFollowingCaller caller;
  private final CallerProto identity;
  private final AtomicLong callIds = new AtomicLong();

  public MetaClient(RpcClientPool pool, List<String> replicas, Duration retryFor, CallerProto identity) {
    this.caller = new LeaderFollowingCaller(pool, replicas, Service.META, retryFor);
    this.identity = identity;
  }

  /** Sends a request; a status other than OK fails the future with a {@link TesseraException}. */
  public CompletableFuture<MetaResponseProto> call(MetaRequestProto.Builder request) {
    MetaRequestProto req = request.setCaller(identity).setCallId(callIds.incrementAndGet()).build();
    return caller.call(req.toByteArray(), MetaResponseProto::parseFrom,
        r -> new LeaderFollowingCaller.Outcome(r.getStatus(), r.getLeaderHint(), r.getMessage())).thenApply(r -> {
      if (r.getStatus() != StatusProto.OK) {
        throw new java.util.concurrent.CompletionException(TesseraException.of(r.getStatus(), r.getMessage()));
      }
      return r;
    });
  }

  public static CallerProto identity(byte[] clientId, String appId) {
    return CallerProto.newBuilder().setClientId(ByteString.copyFrom(clientId)).setAppId(appId).build();
  }
}
