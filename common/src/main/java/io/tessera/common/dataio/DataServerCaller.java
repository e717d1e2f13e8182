package io.tessera.common.dataio;

import io.netty.buffer.ByteBuf;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.PeerUnreachableException;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * data.proto calls to data servers named by id, for the client's striping core and for recovery
 * alike: stamps the caller, finds the address, sends, retries a transport failure on a fresh
 * address, decodes the reply. What differs between callers comes in: where addresses come from, how
 * many retries, and what failures become ({@link DataServerReply.Outcomes}).
 */
public final class DataServerCaller {
  /** Where data servers are reached. */
  public interface Addresses {
    /**
     * The server's address; {@code refresh}: the last one failed, ask where it is now. Fails with
     * the caller's own exception when the server is unknown.
     */
    CompletableFuture<String> address(String server, boolean refresh);
  }

  private final RpcClientPool pool;
  private final CallerProto caller;
  private final boolean recovery;
  private final Addresses addresses;
  private final DataServerReply.Outcomes outcomes;
  private final int retries;
  private final ServedElsewhere sent = new ServedElsewhere();

  /**
   * @param recovery calls are recovery's (a recovering server serves them)
   * @param retries how often a call that met a transport failure is sent again
   */
  public DataServerCaller(
      RpcClientPool pool,
      CallerProto caller,
      boolean recovery,
      Addresses addresses,
      DataServerReply.Outcomes outcomes,
      int retries) {
    this.pool = pool;
    this.caller = caller;
    this.recovery = recovery;
    this.addresses = addresses;
    this.outcomes = outcomes;
    this.retries = retries;
  }

  public CallerProto caller() {
    return caller;
  }

  /**
   * Sends one request; the payload's ownership passes to this call (retries retain it). Completes
   * with the OK reply, whose payload the caller releases, or fails as the outcomes say.
   */
  public CompletableFuture<DataServerReply> call(
      String server, DataRequestProto.Builder request, ByteBuf payload) {
    request.setCaller(caller);
    if (recovery) {
      request.setRecovery(true);
    }
    DataRequestProto built = request.build();
    long moved = RequestBytes.of(built, payload == null ? 0 : payload.readableBytes());
    return attempt(server, built, moved, payload, 0)
        .whenComplete(
            (r, e) -> {
              if (payload != null) {
                payload.release();
              }
            });
  }

  /** Whether a call failed on the way (connection, silence, timeout) rather than by an answer. */
  public static boolean transport(Throwable cause) {
    return cause instanceof PeerUnreachableException || cause instanceof TimeoutException;
  }

  private CompletableFuture<DataServerReply> attempt(
      String server, DataRequestProto request, long moved, ByteBuf payload, int attempt) {
    return addresses
        .address(server, attempt > 0)
        .thenCompose(
            address -> {
              byte[] header =
                  request.toBuilder()
                      .setServedElsewhere(sent.send(address, moved))
                      .build()
                      .toByteArray();
              if (payload != null) {
                payload.retain();
              }
              return pool.call(
                      address, Service.DATA, header, payload == null ? null : payload.duplicate())
                  .handle(
                      (frame, err) -> {
                        if (err == null) {
                          return CompletableFuture.completedFuture(
                              DataServerReply.decode(server, frame, outcomes));
                        }
                        Throwable cause = Failures.cause(err);
                        // a peer that went silent for the silence limit had its chance: no second
                        // wait
                        if (attempt < retries
                            && transport(cause)
                            && !(cause instanceof PeerUnreachableException p && p.silent())) {
                          return attempt(server, request, moved, payload, attempt + 1);
                        }
                        return CompletableFuture.<DataServerReply>failedFuture(
                            outcomes.unreachable(server, address, cause));
                      })
                  .thenCompose(f -> f);
            });
  }
}
