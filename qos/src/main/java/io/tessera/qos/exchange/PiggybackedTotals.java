package io.tessera.qos.exchange;

import io.tessera.common.proto.ServedElsewhereProto;
import io.tessera.qos.sched.FairScheduler;
import io.tessera.qos.sched.FairScheduler.Served;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each application was served elsewhere, as its requests report it: every request carries what
 * its client sent to other addresses since its last request here (dmClock's delta), and the sum
 * over an application's clients is its service at the other servers. No messages between proxies,
 * and nothing stale but the time between one client's requests here.
 */
public final class PiggybackedTotals implements FairScheduler.Elsewhere {
  /** A delta beyond these cannot be one client's since its last request: ignored. */
  static final long MAX_DELTA_BYTES = 1L << 40;

  static final long MAX_DELTA_REQUESTS = 1L << 32;

  private final long requestCost;
  private final Map<String, Served> sums = new ConcurrentHashMap<>();

  /**
   * @param requestCost bytes each request costs on top of its own, as this proxy counts service
   */
  public PiggybackedTotals(long requestCost) {
    this.requestCost = requestCost;
  }

  /** A request of {@code app} reported {@code delta}; {@code app} is from a bounded set. */
  public void add(String app, ServedElsewhereProto delta) {
    long bytes = delta.getBytes();
    long requests = delta.getRequests();
    if (bytes < 0 || requests < 0 || bytes > MAX_DELTA_BYTES || requests > MAX_DELTA_REQUESTS) {
      return;
    }
    if (bytes == 0 && requests == 0) {
      return;
    }
    sums.merge(app, new Served(bytes, bytes + requests * requestCost), Served::plus);
  }

  @Override
  public Served served(String app) {
    return sums.getOrDefault(app, Served.NONE);
  }
}
