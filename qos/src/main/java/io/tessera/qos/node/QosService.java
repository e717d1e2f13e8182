package io.tessera.qos.node;

import com.google.protobuf.InvalidProtocolBufferException;
import io.tessera.common.proto.QosAppCountersProto;
import io.tessera.common.proto.QosProxyStatusProto;
import io.tessera.common.proto.QosRequestProto;
import io.tessera.common.proto.QosResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.security.Identity;
import io.tessera.common.status.TesseraException;
import io.tessera.qos.exchange.PeerTotals;
import io.tessera.qos.exchange.TotalsExchange;
import io.tessera.qos.sched.FairScheduler;
import java.util.concurrent.CompletableFuture;

/**
 * qos.proto at a scheduling point: totals from the other points, and what this one served. Only
 * servers that schedule (proxies, data servers with the scheduler embedded) may send totals.
 */
final class QosService implements RpcService {
  private final String proxyId;
  private final String dataServer;
  private final long startedMillis = System.currentTimeMillis();
  private final FairScheduler scheduler;
  private final PeerTotals peers;
  private final FairScheduler.Elsewhere elsewhere;
  private final TotalsExchange exchange;
  private final SettingsFollower settings;

  QosService(
      String proxyId,
      String dataServer,
      FairScheduler scheduler,
      PeerTotals peers,
      FairScheduler.Elsewhere elsewhere,
      TotalsExchange exchange,
      SettingsFollower settings) {
    this.proxyId = proxyId;
    this.dataServer = dataServer;
    this.scheduler = scheduler;
    this.peers = peers;
    this.elsewhere = elsewhere;
    this.exchange = exchange;
    this.settings = settings;
  }

  @Override
  public CompletableFuture<RpcReply> handle(RpcCall call) {
    call.payload().release();
    QosRequestProto request;
    try {
      request = QosRequestProto.parseFrom(call.header());
    } catch (InvalidProtocolBufferException e) {
      return reply(error(StatusProto.INVALID_ARGUMENT, "request is not a qos.proto QosRequest"));
    }
    Identity caller = call.identity();
    if (request.hasTotals()
        && caller != null
        && !caller.isServer(Identity.Role.PROXY, Identity.Role.DATA)) {
      // another point's totals shift every application's share: scheduling servers alone send them
      return reply(
          error(
              StatusProto.PERMISSION_DENIED,
              "permission denied: " + caller.describe() + " may not send service totals"));
    }
    return switch (request.getOpCase()) {
      case TOTALS ->
          reply(
              peers.accept(request.getTotals())
                  ? QosResponseProto.newBuilder().setStatus(StatusProto.OK).build()
                  : error(StatusProto.INVALID_ARGUMENT, "totals refused (own, or too many)"));
      case STATUS -> reply(status());
      default -> reply(error(StatusProto.INVALID_ARGUMENT, "request names no operation"));
    };
  }

  private QosResponseProto status() {
    QosProxyStatusProto.Builder s =
        QosProxyStatusProto.newBuilder()
            .setProxy(proxyId)
            .setDataServer(dataServer)
            .setUptimeMs(System.currentTimeMillis() - startedMillis)
            .addAllSettings(settings.current())
            .setExchangesSent(exchange.rounds())
            .setExchangeBytesSent(exchange.bytesSent());
    scheduler.counters().entrySet().stream()
        // an application only expected (counted at zero for /metrics) has nothing to show yet
        .filter(e -> e.getValue().requests() > 0)
        .forEach(
            e ->
                s.addApps(
                    QosAppCountersProto.newBuilder()
                        .setApp(e.getKey())
                        .setBytes(e.getValue().bytes())
                        .setService(e.getValue().service())
                        .setRequests(e.getValue().requests())
                        .setQueueDelayNs(e.getValue().queueDelayNanos())
                        .setQueued(e.getValue().queued())
                        .setOutstanding(e.getValue().outstanding())
                        .setServiceAsked(e.getValue().serviceAsked())
                        .setBackloggedNs(e.getValue().backloggedNanos())
                        .setBytesElsewhere(elsewhere.served(e.getKey()).bytes())
                        .setServiceElsewhere(elsewhere.served(e.getKey()).service())));
    return QosResponseProto.newBuilder().setStatus(StatusProto.OK).setProxy(s).build();
  }

  private static QosResponseProto error(StatusProto status, String message) {
    return QosResponseProto.newBuilder().setStatus(status).setMessage(message).build();
  }

  private static CompletableFuture<RpcReply> reply(QosResponseProto r) {
    return CompletableFuture.completedFuture(RpcReply.of(r));
  }

  @Override
  public RpcReply errorReply(Throwable cause) {
    return RpcReply.of(error(TesseraException.statusOf(cause), String.valueOf(cause.getMessage())));
  }
}
