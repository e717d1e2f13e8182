package io.tessera.qos.node;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.dataio.RequestBytes;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.DataResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.Failures;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.security.Identity;
import io.tessera.common.status.TesseraException;
import io.tessera.qos.exchange.PiggybackedTotals;
import io.tessera.qos.exchange.TotalsExchange;
import io.tessera.qos.sched.FairScheduler;
import java.util.concurrent.CompletableFuture;

/**
 * data.proto through the scheduler: each request the {@link Admission} lets through waits its turn
 * in the {@link FairScheduler}, then goes {@link Downstream} (to the data server behind a proxy, or
 * to the server's own handler), and its answer comes back unchanged. Only the header is parsed, for
 * the application and the bytes.
 */
public final class ScheduledDataService implements RpcService {
  /**
   * Where a request goes once its turn comes. A future that fails means the request was not served
   * (a proxy's data server did not answer): it is answered UNAVAILABLE with the failure's message,
   * and not counted as service.
   */
  public interface Downstream {
    CompletableFuture<RpcReply> serve(RpcCall call);
  }

  /** Whether a request is scheduled, passed on at once, or refused. */
  public interface Admission {
    /**
     * Null to schedule the request; {@link #BYPASS} (empty) to pass it on at once, as a request
     * that must not wait behind others; else why it is refused.
     */
    String check(Identity caller, DataRequestProto request);

    String BYPASS = "";
  }

  private final FairScheduler scheduler;
  private final TotalsExchange exchange;
  private final PiggybackedTotals piggybacked;
  private final Admission admission;
  private final Downstream downstream;
  private final RequestApps apps = new RequestApps();

  ScheduledDataService(
      FairScheduler scheduler,
      TotalsExchange exchange,
      PiggybackedTotals piggybacked,
      Admission admission,
      Downstream downstream) {
    this.scheduler = scheduler;
    this.exchange = exchange;
    this.piggybacked = piggybacked;
    this.admission = admission;
    this.downstream = downstream;
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
    String admitted = admission.check(call.identity(), request);
    if (admitted != null && admitted.isEmpty()) {
      return downstream.serve(call);
    }
    if (admitted != null) {
      call.payload().release();
      return CompletableFuture.completedFuture(error(StatusProto.PERMISSION_DENIED, admitted));
    }
    String app = apps.app(request);
    long bytes = RequestBytes.of(request, call.payload().readableBytes());
    piggybacked.add(app, request.getServedElsewhere());
    CompletableFuture<RpcReply> answer = new CompletableFuture<>();
    scheduler.submit(
        app,
        bytes,
        () ->
            downstream
                .serve(call)
                .whenComplete(
                    (reply, err) -> {
                      scheduler.done(app);
                      if (err != null) {
                        answer.complete(
                            error(StatusProto.UNAVAILABLE, Failures.cause(err).getMessage()));
                        return;
                      }
                      exchange.served(bytes);
                      answer.complete(reply);
                    }));
    return answer;
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return error(TesseraException.statusOf(cause), String.valueOf(cause.getMessage()));
  }

  static RpcReply error(StatusProto status, String message) {
    return RpcReply.of(
        DataResponseProto.newBuilder().setStatus(status).setMessage(message).build());
  }
}
