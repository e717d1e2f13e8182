package io.tessera.qos.proxy;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.dataio.RequestBytes;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.DataAccess;
import io.tessera.common.security.Identity;
import io.tessera.common.status.TesseraException;
import io.tessera.qos.exchange.PiggybackedTotals;
import io.tessera.qos.exchange.TotalsExchange;
import io.tessera.qos.sched.FairScheduler;
import java.util.concurrent.CompletableFuture;

/**
 * data.proto through the proxy: each request waits its turn in the {@link FairScheduler}, then goes
 * to the data server unchanged, header and payload as they came (the payload is not copied), and
 * the server's answer goes back the same way. The proxy parses only the header, for the application
 * and the bytes, and for who may send it: the data server trusts the proxy with the meta group's
 * own requests, so the proxy passes those on only from the meta group ({@link DataAccess}); files'
 * access tokens travel on to the data server, which checks them.
 */
final class ForwardingService implements RpcService {
  private final String dataServer;
  private final RpcClientPool pool;
  private final FairScheduler scheduler;
  private final TotalsExchange exchange;
  private final PiggybackedTotals piggybacked;
  private final RequestApps apps = new RequestApps();

  ForwardingService(
      String dataServer,
      RpcClientPool pool,
      FairScheduler scheduler,
      TotalsExchange exchange,
      PiggybackedTotals piggybacked) {
    this.dataServer = dataServer;
    this.pool = pool;
    this.scheduler = scheduler;
    this.exchange = exchange;
    this.piggybacked = piggybacked;
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
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    DataRequestProto request;
    try {
      request = DataRequestProto.parseFrom(call.header());
    } catch (InvalidProtocolBufferException e) {
      call.payload().release();
      return CompletableFuture.completedFuture(
          error(StatusProto.INVALID_ARGUMENT, "request is not a data.proto DataRequestProto"));
    }
    String refused = refusal(call.identity(), request);
    if (refused != null) {
      call.payload().release();
      return CompletableFuture.completedFuture(error(StatusProto.PERMISSION_DENIED, refused));
    }
    String app = apps.app(request);
    long bytes = RequestBytes.of(request, call.payload().readableBytes());
    piggybacked.add(app, request.getServedElsewhere());
    CompletableFuture<RpcReply> answer = new CompletableFuture<>();
    scheduler.submit(
        app,
        bytes,
        () ->
            pool.call(dataServer, Service.DATA, call.header(), call.payload())
                .whenComplete(
                    (frame, err) -> {
                      scheduler.done(app);
                      if (err != null) {
                        answer.complete(
                            error(
                                StatusProto.UNAVAILABLE,
                                "data server "
                                    + dataServer
                                    + " behind this proxy did not answer: "
                                    + Failures.cause(err).getMessage()));
                        return;
                      }
                      exchange.served(bytes);
                      answer.complete(new RpcReply(frame.header(), frame.payload()));
                    }));
    return answer;
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return error(TesseraException.statusOf(cause), String.valueOf(cause.getMessage()));
  }

  private static RpcReply error(StatusProto status, String message) {
    return RpcReply.of(
        DataResponseProto.newBuilder().setStatus(status).setMessage(message).build());
  }
}
