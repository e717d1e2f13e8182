package io.tessera.client.internal;

import io.netty.buffer.ByteBuf;
import io.tessera.common.dataio.DataServerCaller;
import io.tessera.common.dataio.DataServerReply;
import io.tessera.common.dataio.ProxyRoutes;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.ClusterStatusRequestProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataServerProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.proto.StripeLockProto;
import io.tessera.common.proto.UnlockRequestProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.status.TesseraException;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * data.proto calls to data servers named by id. Addresses come from the meta group's server map,
 * refreshed when a server is unknown or unreachable (it may have moved), and each call is retried
 * once before its error reaches the caller.
 */
public final class DataClient {
  private final MetaClient meta;
  private final Map<String, String> addresses = new ConcurrentHashMap<>();
  private final Map<String, String> proxies = new ConcurrentHashMap<>();
  private final ProxyRoutes routes;
  private final boolean useProxies;
  private final ServerHealth health;
  private final DataServerCaller caller;

  /** Reaches each data server itself, past its QoS proxy: for requests no proxy should queue. */
  private final DataServerCaller direct;

  /**
   * @param proxyBypassMillis how long a data server is reached directly after its QoS proxy failed
   */
  public DataClient(
      RpcClientPool pool,
      MetaClient meta,
      CallerProto identity,
      ServerHealth health,
      long proxyBypassMillis,
      boolean useProxies) {
    this.meta = meta;
    this.health = health;
    this.routes = new ProxyRoutes(proxyBypassMillis);
    this.useProxies = useProxies;
    this.caller = new DataServerCaller(pool, identity, false, this::address, outcomes(health), 1);
    this.direct =
        new DataServerCaller(
            pool,
            identity,
            false,
            (id, refresh) -> address(id, refresh, false),
            outcomes(health),
            1);
  }

  /** The status vector this client keeps of data servers. */
  public ServerHealth health() {
    return health;
  }

  /** Sends one request; payload ownership passes to this call (retries retain it). */
  public CompletableFuture<DataServerReply> call(
      String serverId, DataRequestProto.Builder request, ByteBuf payload) {
    return caller.call(serverId, request, payload);
  }

  /**
   * Sends a request whose reply carries nothing the caller needs: completes with null when the
   * server did it, or with the reason it did not (never exceptionally).
   */
  public CompletableFuture<Throwable> callForOutcome(
      String serverId, DataRequestProto.Builder request, ByteBuf payload) {
    return outcome(call(serverId, request, payload));
  }

  /**
   * Like {@link #callForOutcome}, but straight to the data server, never queued behind other
   * requests at its QoS proxy: a lock renewal must arrive while the write it keeps alive waits
   * there.
   */
  public CompletableFuture<Throwable> callPastProxy(
      String serverId, DataRequestProto.Builder request) {
    return outcome(direct.call(serverId, request, null));
  }

  /** Null when the server did it, else why not (never exceptional); the reply is released. */
  private static CompletableFuture<Throwable> outcome(CompletableFuture<DataServerReply> call) {
    return call.handle(
        (r, e) -> {
          if (r != null) {
            r.payload().release();
          }
          return e == null ? null : Failures.cause(e);
        });
  }

  /**
   * Releases a stripe lock of {@code file} on the servers that granted it (with the file's access
   * token, as the lock was taken); completes when each answered or failed (a server that cannot be
   * reached frees the lock when its lease runs out).
   */
  public CompletableFuture<Void> unlock(
      FileTarget file, Collection<String> granted, StripeLockProto lock) {
    CompletableFuture<?>[] calls =
        granted.stream()
            .map(
                server ->
                    callForOutcome(
                        server,
                        file.request(file.layout())
                            .setUnlock(UnlockRequestProto.newBuilder().setLock(lock)),
                        null))
            .toArray(CompletableFuture[]::new);
    return CompletableFuture.allOf(calls);
  }

  /**
   * Where a writer waits before asking again for stripe locks a server refused as busy: a
   * randomised back-off that doubles with each attempt, up to 64 ms.
   */
  public static Executor afterLockRefusal(int attempt) {
    long micros = ThreadLocalRandom.current().nextLong(200, 1000L << Math.min(attempt, 6));
    return CompletableFuture.delayedExecutor(micros, TimeUnit.MICROSECONDS);
  }

  /**
   * The client's side of a data server's answer: a server that answers UNAVAILABLE (starting, or
   * cut off from the meta group) is as good as down for now; any other answer shows it is up.
   */
  private DataServerReply.Outcomes outcomes(ServerHealth health) {
    return new DataServerReply.Outcomes() {
      @Override
      public void answered(String server) {
        health.answered(server);
      }

      @Override
      public RuntimeException failed(String server, StatusProto status, String message) {
        if (status == StatusProto.UNAVAILABLE) {
          health.markDown(server, message);
          return new CompletionException(new ServerDownException(server, message));
        }
        health.answered(server);
        return new CompletionException(TesseraException.of(status, message));
      }

      @Override
      public RuntimeException unreadable(String server, String message) {
        return new CompletionException(new TesseraException(StatusProto.INTERNAL, message));
      }

      @Override
      public RuntimeException unreachable(String server, String address, Throwable cause) {
        String why = "data server " + server + " (" + address + ") failed: " + cause.getMessage();
        if (!address.equals(addresses.get(server))) {
          routes.proxyFailed(server); // the next call goes direct
        }
        if (DataServerCaller.transport(cause)) {
          health.markDown(server, cause.getMessage());
          return new CompletionException(new ServerDownException(server, why));
        }
        return new CompletionException(new TesseraException(StatusProto.UNAVAILABLE, why));
      }
    };
  }

  /**
   * Where a server's requests go: its QoS proxy if it has one, else itself. After a failed attempt
   * through the proxy the retry goes direct; after a failed direct attempt the map is reloaded (the
   * server may have moved).
   */
  private CompletableFuture<String> address(String serverId, boolean refresh) {
    return address(serverId, refresh, true);
  }

  private CompletableFuture<String> address(String serverId, boolean refresh, boolean viaProxy) {
    String known = addresses.get(serverId);
    if (known != null) {
      String route =
          viaProxy ? routes.choose(serverId, known, proxies.getOrDefault(serverId, "")) : known;
      if (!refresh) {
        return CompletableFuture.completedFuture(route);
      }
      if (!route.equals(known)) {
        routes.proxyFailed(serverId);
        return CompletableFuture.completedFuture(known);
      }
    }
    return refreshMap()
        .thenApply(
            v -> {
              String a = addresses.get(serverId);
              if (a == null) {
                // removed (or never registered): read around it like a down server, and ask again
                // later
                String why = "data server " + serverId + " is not registered with the meta group";
                health.markDown(serverId, why);
                throw new CompletionException(new ServerDownException(serverId, why));
              }
              return viaProxy ? routes.choose(serverId, a, proxies.getOrDefault(serverId, "")) : a;
            });
  }

  /** Reloads every data server's address from the meta group. */
  public CompletableFuture<Void> refreshMap() {
    return meta.call(
            MetaRequestProto.newBuilder()
                .setClusterStatus(ClusterStatusRequestProto.getDefaultInstance()))
        .thenAccept(
            r -> {
              for (DataServerProto s : r.getCluster().getDataServersList()) {
                addresses.put(s.getId(), s.getAddress());
                proxies.put(s.getId(), useProxies ? s.getProxyAddress() : "");
              }
            });
  }
}
