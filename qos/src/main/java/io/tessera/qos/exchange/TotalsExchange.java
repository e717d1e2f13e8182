package io.tessera.qos.exchange;

import io.netty.buffer.Unpooled;
import io.tessera.common.proto.AppTotalProto;
import io.tessera.common.proto.QosRequestProto;
import io.tessera.common.proto.ServiceTotalsProto;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.qos.sched.FairScheduler;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Sends this proxy's per-application service totals to the other proxies every interval, or sooner
 * once it served a batch of bytes: vPFS's batched exchange. A peer that does not answer is left
 * alone until the next round; totals are cumulative, so a lost round costs nothing but staleness.
 */
public final class TotalsExchange {
  private final String self;
  private final long incarnation = System.currentTimeMillis();
  private final FairScheduler scheduler;
  private final RpcClientPool pool;
  private final Supplier<List<String>> peers;
  private final long batchBytes;
  private final AtomicLong sinceSent = new AtomicLong();
  private final AtomicBoolean sending = new AtomicBoolean();
  private final AtomicLong rounds = new AtomicLong();
  private final AtomicLong bytesSent = new AtomicLong();
  private final ScheduledExecutorService timer;

  public TotalsExchange(
      String self,
      FairScheduler scheduler,
      RpcClientPool pool,
      Supplier<List<String>> peers,
      long batchBytes,
      ScheduledExecutorService timer) {
    this.self = self;
    this.scheduler = scheduler;
    this.pool = pool;
    this.peers = peers;
    this.batchBytes = batchBytes;
    this.timer = timer;
  }

  /** Sends every {@code intervalMillis} (0: only after batches of bytes, if those are set). */
  public void start(long intervalMillis) {
    if (intervalMillis > 0) {
      timer.scheduleWithFixedDelay(
          this::send, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }
  }

  /** This proxy served {@code bytes} more; a full batch sends at once. */
  public void served(long bytes) {
    if (batchBytes > 0 && sinceSent.addAndGet(bytes) >= batchBytes) {
      timer.execute(this::send);
    }
  }

  /** Rounds sent, and the bytes they put on the wire (the exchange's cost). */
  public long rounds() {
    return rounds.get();
  }

  public long bytesSent() {
    return bytesSent.get();
  }

  private void send() {
    if (!sending.compareAndSet(false, true)) {
      return;
    }
    try {
      sinceSent.set(0);
      ServiceTotalsProto.Builder totals =
          ServiceTotalsProto.newBuilder().setProxy(self).setIncarnation(incarnation);
      scheduler
          .counters()
          .forEach(
              (app, c) ->
                  totals.addApps(
                      AppTotalProto.newBuilder()
                          .setApp(app)
                          .setBytes(c.bytes())
                          .setService(c.service())));
      byte[] header = QosRequestProto.newBuilder().setTotals(totals).build().toByteArray();
      List<String> to = peers.get();
      for (String peer : to) {
        pool.call(peer, Service.QOS, header, Unpooled.EMPTY_BUFFER)
            .whenComplete(
                (frame, err) -> {
                  if (frame != null) {
                    frame.release();
                  }
                });
        bytesSent.addAndGet(header.length);
      }
      if (!to.isEmpty()) {
        rounds.incrementAndGet();
      }
    } finally {
      sending.set(false);
    }
  }
}
