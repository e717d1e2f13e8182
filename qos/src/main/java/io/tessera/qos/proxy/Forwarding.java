package io.tessera.qos.proxy;

import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.DataAccess;
import io.tessera.common.security.Identity;
import io.tessera.qos.node.ScheduledDataService;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A scheduled request's way on from the proxy: to the data server unchanged, header and payload as
 * they came (the payload is not copied), and the server's answer back the same way. The data server
 * trusts the proxy with the meta group's own requests, so the proxy takes those only from the meta
 * group ({@link #refusal}); files' access tokens travel on to the data server, which checks them.
 */
final class Forwarding implements ScheduledDataService.Downstream {
  private final String dataServer;
  private final RpcClientPool pool;

  Forwarding(String dataServer, RpcClientPool pool) {
    this.dataServer = dataServer;
    this.pool = pool;
  }

  /** Why this caller may not have the proxy send the request on, or null. */
  static String refusal(Identity caller, DataRequestProto req) {
    if (caller == null || caller.isServer(Identity.Role.META)) {
      return null;
    }
    DataAccess.Need need = DataAccess.of(req);
    boolean refused =
        need == DataAccess.Need.SERVER
            || (need == DataAccess.Need.SERVER_OR_ADMIN && !caller.admin());
    return refused
        ? "permission denied: "
            + caller.describe()
            + " may not send "
            + (req.getRecovery() ? "recovery" : req.getOpCase().name().toLowerCase())
            + " requests: only the meta group does"
        : null;
  }

  @Override
  public CompletableFuture<RpcReply> serve(RpcCall call) {
    return pool.call(dataServer, Service.DATA, call.header(), call.payload())
        .handle(
            (frame, err) -> {
              if (err != null) {
                throw new CompletionException(
                    new IOException(
                        "data server "
                            + dataServer
                            + " behind this proxy did not answer: "
                            + Failures.cause(err).getMessage()));
              }
              return new RpcReply(frame.header(), frame.payload());
            });
  }
}
