package io.tessera.qos.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.ServedElsewhereProto;
import io.tessera.qos.sched.FairScheduler.Served;
import org.junit.jupiter.api.Test;

/**
 * With piggybacked totals an application's service elsewhere is the sum of what its requests
 * report, counted as this proxy counts service; a report no client could have made is dropped.
 */
class PiggybackedTotalsTest {
  private static ServedElsewhereProto delta(long bytes, long requests) {
    return ServedElsewhereProto.newBuilder().setBytes(bytes).setRequests(requests).build();
  }

  @Test
  void theDeltasOfAnApplicationsRequestsAddUpWithTheirPerRequestCost() {
    PiggybackedTotals totals = new PiggybackedTotals(100);
    totals.add("a", delta(1000, 2));
    totals.add("a", delta(500, 1));
    totals.add("b", delta(0, 0));
    assertThat(totals.served("a")).isEqualTo(new Served(1500, 1800));
    assertThat(totals.served("b")).isEqualTo(Served.NONE);
  }

  @Test
  void aDeltaNoClientCouldHaveSentIsIgnored() {
    PiggybackedTotals totals = new PiggybackedTotals(100);
    totals.add("a", delta(-1, 1)); // 2^64 - 1 on the wire
    totals.add("a", delta(PiggybackedTotals.MAX_DELTA_BYTES + 1, 1));
    totals.add("a", delta(10, Long.MAX_VALUE));
    assertThat(totals.served("a")).isEqualTo(Served.NONE);
  }
}
