package io.tessera.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.rpc.Service;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A script ran {@code fs mkdir /reports}, then {@code fs put f /reports/}; the meta leader lost its
 * leadership in between (a loaded machine), and the put's first lookup reached a replica that had
 * not applied the mkdir yet: "/reports" was missing, so the put aimed at the path itself, which the
 * new leader then said existed ("/reports already exists").
 */
class MetaClientTest {
  private static final long LEADER_APPLIED = 10;

  private final RpcClientPool pool = new RpcClientPool("test", 1, 1 << 20, 10_000, 2000);
  private final List<MetaRequestProto> seen = new CopyOnWriteArrayList<>();
  private final AtomicBoolean elected = new AtomicBoolean();
  private RpcServer replica;

  @AfterEach
  void close() {
    pool.close();
    if (replica != null) {
      replica.close();
    }
  }

  @Test
  void aNewClientWaitsForTheLeaderRatherThanTrustAReplicaThatMayNotHaveAppliedEveryChange()
      throws Exception {
    replica = startReplica(2);
    MetaClient client = clientTryingTheDeadLeaderFirst();

    MetaResponseProto reply = client.call(lookup("/reports")).get(10, TimeUnit.SECONDS);

    assertThat(reply.getStatus()).as("/reports as the leader knows it").isEqualTo(StatusProto.OK);
    assertThat(seen).as("requests the replica saw").noneMatch(MetaRequestProto::getFollowerReadOk);
  }

  @Test
  void onceTheLeaderAnsweredReadsDuringAnElectionAskForAllItHadApplied() throws Exception {
    replica = startReplica(1);
    MetaClient client = clientTryingTheDeadLeaderFirst();
    client.call(lookup("/")).get(10, TimeUnit.SECONDS);
    elected.set(false); // the new leader dies too; the replica elects again

    client.call(lookup("/reports")).handle((reply, err) -> reply).get(10, TimeUnit.SECONDS);

    MetaRequestProto followerRead =
        seen.stream().filter(MetaRequestProto::getFollowerReadOk).findFirst().orElseThrow();
    assertThat(followerRead.getSeenIndex())
        .as("the position a replica must have applied to answer")
        .isEqualTo(LEADER_APPLIED);
  }

  /** A client whose first replica is a killed leader, as after a client last talked to it. */
  private MetaClient clientTryingTheDeadLeaderFirst() throws Exception {
    return new MetaClient(
        pool,
        List.of("127.0.0.1:" + refusingPort(), "127.0.0.1:" + replica.port()),
        Duration.ofSeconds(10),
        MetaClient.identity(new byte[16], "test"),
        true);
  }

  private static MetaRequestProto.Builder lookup(String path) {
    return MetaRequestProto.newBuilder().setGetAttr(GetAttrRequestProto.newBuilder().setPath(path));
  }

  /**
   * A replica electing a leader: it wins once it has refused {@code refusalsToWin} requests; until
   * then it answers reads a client allows it from a state that lacks "/reports", as one that had
   * not applied the mkdir would. As leader it has applied up to {@link #LEADER_APPLIED}.
   */
  private RpcServer startReplica(int refusalsToWin) throws InterruptedException {
    int[] refusals = {0};
    RpcService service =
        new RpcService() {
          @Override
          public CompletableFuture<RpcReply> handle(RpcCall call) {
            call.payload().release();
            MetaRequestProto req;
            try {
              req = MetaRequestProto.parseFrom(call.header());
            } catch (Exception e) {
              return CompletableFuture.failedFuture(e);
            }
            seen.add(req);
            MetaResponseProto.Builder r = MetaResponseProto.newBuilder();
            if (!elected.get() && ++refusals[0] > refusalsToWin) {
              elected.set(true);
              refusals[0] = 0;
            }
            if (elected.get()) {
              r.setStatus(StatusProto.OK).setIndex(3).setAppliedIndex(LEADER_APPLIED);
            } else if (req.getFollowerReadOk()) {
              r.setStatus(StatusProto.NOT_FOUND).setMessage("no such file or directory");
            } else {
              r.setStatus(StatusProto.NOT_LEADER);
            }
            return CompletableFuture.completedFuture(RpcReply.of(r.build()));
          }

          @Override
          public RpcReply errorReply(Throwable cause) {
            return RpcReply.of(
                MetaResponseProto.newBuilder().setStatus(StatusProto.INTERNAL).build());
          }
        };
    return RpcServer.start(
        "replica",
        new InetSocketAddress("127.0.0.1", 0),
        Map.of(Service.META, service),
        1 << 20,
        1);
  }

  /** A loopback port nothing listens on: connections to it are refused, as to a killed process. */
  private static int refusingPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
