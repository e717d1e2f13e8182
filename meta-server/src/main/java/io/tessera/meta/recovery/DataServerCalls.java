package io.tessera.meta.recovery;

import io.netty.buffer.ByteBuf;
import io.tessera.common.cluster.RecoveryIdentity;
import io.tessera.common.dataio.DataServerCaller;
import io.tessera.common.dataio.DataServerReply;
import io.tessera.common.dataio.ProxyRoutes;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.meta.registry.DataServerRegistry;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocking data.proto calls of the recovery coordinator: marked as recovery (a recovering server
 * serves them), under one caller identity (its stripe locks are its own), and failing with a {@link
 * TesseraException} for any answer but OK.
 */
final class DataServerCalls {
  /**
   * Recovery's side of a data server's answer: every failure is a {@link RecoveryException}; a
   * proxy that did not answer is bypassed for a while.
   */
  private static DataServerReply.Outcomes outcomes(
      DataServerRegistry registry, ProxyRoutes routes) {
    return new DataServerReply.Outcomes() {
      @Override
      public void answered(String server) {}

      @Override
      public RuntimeException failed(String server, StatusProto status, String message) {
        return new RecoveryException(status, message);
      }

      @Override
      public RuntimeException unreadable(String server, String message) {
        return new RecoveryException(StatusProto.INTERNAL, message);
      }

      @Override
      public RuntimeException unreachable(String server, String address, Throwable cause) {
        if (!address.equals(registry.address(server))) {
          routes.proxyFailed(server);
        }
        return new RecoveryException(
            StatusProto.UNAVAILABLE,
            "data server " + server + " did not answer: " + cause.getMessage());
      }
    };
  }

  /** After its proxy failed, recovery reaches a data server directly for this long. */
  private static final long PROXY_BYPASS_MILLIS = 10_000;

  private final ProxyRoutes routes = new ProxyRoutes(PROXY_BYPASS_MILLIS);
  private final DataServerCaller calls;
  private final long timeoutMillis;

  DataServerCalls(RpcClientPool pool, DataServerRegistry registry, long timeoutMillis) {
    this.timeoutMillis = timeoutMillis;
    CallerProto caller =
        CallerProto.newBuilder()
            .setClientId(RecoveryIdentity.newClientId())
            .setAppId("tessera-recovery")
            .build();
    this.calls =
        new DataServerCaller(
            pool,
            caller,
            true,
            (server, refresh) -> {
              String address = registry.address(server);
              return address != null
                  ? CompletableFuture.completedFuture(
                      routes.choose(server, address, registry.proxyAddress(server)))
                  : CompletableFuture.failedFuture(
                      new RecoveryException(
                          StatusProto.UNAVAILABLE, "data server " + server + " is not registered"));
            },
            outcomes(registry, routes),
            0);
  }

  DataServerReply call(String server, DataRequestProto.Builder request, ByteBuf payload) {
    return await(callAsync(server, request, payload));
  }

  /** Waits for a call started with {@link #callAsync}; throws its failure. */
  DataServerReply await(CompletableFuture<DataServerReply> call) {
    try {
      return call.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      releaseWhenAnswered(call);
      Thread.currentThread().interrupt();
      throw new RecoveryException(StatusProto.UNAVAILABLE, "interrupted");
    } catch (TimeoutException e) {
      releaseWhenAnswered(call);
      throw new RecoveryException(
          StatusProto.UNAVAILABLE, "a data server did not answer within " + timeoutMillis + " ms");
    } catch (ExecutionException e) {
      Throwable cause = Failures.cause(e);
      throw cause instanceof RecoveryException re
          ? re
          : new RecoveryException(StatusProto.UNAVAILABLE, String.valueOf(cause.getMessage()));
    }
  }

  /** A call given up on: its reply, if one still comes, is released on arrival. */
  private static void releaseWhenAnswered(CompletableFuture<DataServerReply> call) {
    call.thenAccept(r -> r.payload().release());
  }

  /** Starts a call; completes with the reply, or fails with a {@link RecoveryException}. */
  CompletableFuture<DataServerReply> callAsync(
      String server, DataRequestProto.Builder request, ByteBuf payload) {
    return calls.call(server, request, payload);
  }

  /**
   * Sends every request at once and waits for all the replies, in the order given; when any fails,
   * the payloads of the others are released and the first failure is thrown.
   */
  Map<String, DataServerReply> callAll(Map<String, DataRequestProto.Builder> requests) {
    return callAll(requests, Map.of());
  }

  /**
   * Like {@link #callAll(Map)}, each request with its payload from {@code payloads} (absent: none),
   * which the calls release.
   */
  Map<String, DataServerReply> callAll(
      Map<String, DataRequestProto.Builder> requests, Map<String, ? extends ByteBuf> payloads) {
    Map<String, CompletableFuture<DataServerReply>> sent = new LinkedHashMap<>();
    requests.forEach(
        (server, request) -> sent.put(server, callAsync(server, request, payloads.get(server))));
    Map<String, DataServerReply> replies = new LinkedHashMap<>();
    RecoveryException failure = null;
    for (Map.Entry<String, CompletableFuture<DataServerReply>> e : sent.entrySet()) {
      try {
        replies.put(e.getKey(), await(e.getValue()));
      } catch (RecoveryException x) {
        failure = failure == null ? x : failure;
      }
    }
    if (failure != null) {
      replies.values().forEach(r -> r.payload().release());
      throw failure;
    }
    return replies;
  }

  /** Like {@link #callAll} for requests whose payloads are not needed: the headers. */
  Map<String, DataResponseProto> callAllHeaders(Map<String, DataRequestProto.Builder> requests) {
    return callAllHeaders(requests, Map.of());
  }

  /**
   * Like {@link #callAll(Map, Map)} for requests whose reply payloads are not needed: the headers.
   */
  Map<String, DataResponseProto> callAllHeaders(
      Map<String, DataRequestProto.Builder> requests, Map<String, ? extends ByteBuf> payloads) {
    Map<String, DataResponseProto> headers = new LinkedHashMap<>();
    callAll(requests, payloads)
        .forEach(
            (server, r) -> {
              r.payload().release();
              headers.put(server, r.header());
            });
    return headers;
  }

  /** A call whose payload is not needed. */
  DataResponseProto callHeader(String server, DataRequestProto.Builder request, ByteBuf payload) {
    DataServerReply r = call(server, request, payload);
    r.payload().release();
    return r.header();
  }

  CallerProto caller() {
    return calls.caller();
  }
}
