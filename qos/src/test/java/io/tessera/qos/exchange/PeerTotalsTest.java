package io.tessera.qos.exchange;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.AppTotalProto;
import io.tessera.common.proto.ServiceTotalsProto;
import io.tessera.qos.sched.FairScheduler.Served;
import org.junit.jupiter.api.Test;

/**
 * What an application was served elsewhere is the sum of the other proxies' latest totals: a
 * proxy's newer totals replace its older ones, a restarted proxy starts again from zero, and a peer
 * cannot make this proxy hold unbounded state.
 */
class PeerTotalsTest {
  private static ServiceTotalsProto totals(String proxy, long incarnation, String app, long bytes) {
    return ServiceTotalsProto.newBuilder()
        .setProxy(proxy)
        .setIncarnation(incarnation)
        .addApps(AppTotalProto.newBuilder().setApp(app).setBytes(bytes).setService(2 * bytes))
        .build();
  }

  @Test
  void theLatestTotalsOfEachPeerAreSummed() {
    PeerTotals peers = new PeerTotals("proxy-ds-1");
    peers.accept(totals("proxy-ds-2", 1, "a", 100));
    peers.accept(totals("proxy-ds-3", 1, "a", 50));
    peers.accept(totals("proxy-ds-2", 1, "a", 300));
    assertThat(peers.served("a")).isEqualTo(new Served(350, 700));
    assertThat(peers.served("b")).isEqualTo(Served.NONE);
  }

  @Test
  void aRestartedPeerCountsFromZeroAgainAndItsOwnTotalsAreIgnored() {
    PeerTotals peers = new PeerTotals("proxy-ds-1");
    peers.accept(totals("proxy-ds-2", 1, "a", 1000));
    peers.accept(totals("proxy-ds-2", 2, "a", 10));
    assertThat(peers.served("a").bytes()).isEqualTo(10);
    assertThat(peers.accept(totals("proxy-ds-1", 1, "a", 99))).isFalse();
    assertThat(peers.served("a").bytes()).isEqualTo(10);
  }

  @Test
  void aPeerNamingTooManyApplicationsIsRefused() {
    PeerTotals peers = new PeerTotals("proxy-ds-1");
    ServiceTotalsProto.Builder flood = ServiceTotalsProto.newBuilder().setProxy("proxy-ds-9");
    for (int i = 0; i <= PeerTotals.MAX_APPS; i++) {
      flood.addApps(AppTotalProto.newBuilder().setApp("app-" + i).setBytes(1));
    }
    assertThat(peers.accept(flood.build())).isFalse();
    assertThat(peers.served("app-1")).isEqualTo(Served.NONE);
  }
}
