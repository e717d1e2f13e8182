package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.common.proto.GetAttrRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The meta leader was SIGKILLed and the two other replicas have not elected a new one yet. Reads (a
 * client opening files) may be answered by a replica from its own state meanwhile; they used to
 * wait out a back-off on every call, each one first following a hint back to the dead leader, which
 * slowed a writer that opens its file per write from ~60 to ~5 MB/s for the whole election.
 */
class LeaderFollowingCallerTest {
  private static final MetaRequestProto READ =
      MetaRequestProto.newBuilder()
          .setGetAttr(GetAttrRequestProto.newBuilder().setPath("/f"))
          .build();
  private static final Function<String, byte[]> FOLLOWER_READ_OK =
      unreachable ->
          READ.toBuilder()
              .setFollowerReadOk(true)
              .setUnreachableLeader(unreachable)
              .build()
              .toByteArray();

  @Test
  void readsDuringAnElectionGoStraightToAReplicaOnceTheDeadLeaderRefusedAConnection()
      throws Exception {
    try (Election election = Election.start()) {
      LeaderFollowingCaller caller = election.caller(Duration.ofSeconds(10));
      for (int i = 0; i < 10; i++) {
        MetaResponseProto reply =
            caller
                .call(
                    READ.toByteArray(),
                    FOLLOWER_READ_OK,
                    MetaResponseProto::parseFrom,
                    LeaderFollowingCallerTest::outcome)
                .get(10, TimeUnit.SECONDS);
        assertThat(reply.getStatus()).isEqualTo(StatusProto.OK);
      }
      assertThat(caller.backoffs()).as("back-off waits").isZero();
      assertThat(election.requests.get())
          .as("requests the live replicas saw: after the first read, one per read")
          .isLessThanOrEqualTo(11);
    }
  }

  @Test
  void aChangeWithNoLeaderAnywhereWaitsBetweenRoundsAndFailsAtTheDeadlineWithTheReason()
      throws Exception {
    try (Election election = Election.start()) {
      LeaderFollowingCaller caller = election.caller(Duration.ofMillis(600));
      CompletableFuture<MetaResponseProto> change =
          caller.call(
              READ.toByteArray(), MetaResponseProto::parseFrom, LeaderFollowingCallerTest::outcome);

      assertThatThrownBy(() -> change.get(10, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasMessageContaining("no meta replica answered as leader within 600 ms");
      assertThat(caller.backoffs()).as("back-off waits").isPositive();
      assertThat(election.requests.get()).as("requests in 600 ms: no busy loop").isLessThan(40);
    }
  }

  /**
   * Every command against a cluster that was not running took the whole retry window (10 s) to say
   * so, though each replica's address refused the connection at once. (A caller that was answered
   * before waits out a restart of the whole group, as it did.)
   */
  @Test
  void aGroupThatIsNotRunningAnywhereIsReportedAtOnceNotAfterTheDeadline() throws Exception {
    List<String> nobody = List.of(closedPort(), closedPort(), closedPort());
    try (RpcClientPool pool = new RpcClientPool("test", 1, 1 << 20, 10_000, 2000)) {
      LeaderFollowingCaller caller =
          new LeaderFollowingCaller(pool, nobody, Service.META, Duration.ofSeconds(10));
      long start = System.nanoTime();
      CompletableFuture<MetaResponseProto> call =
          caller.call(
              READ.toByteArray(), MetaResponseProto::parseFrom, LeaderFollowingCallerTest::outcome);

      assertThatThrownBy(() -> call.get(20, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasMessageContaining("no meta replica is running")
          .hasMessageContaining(nobody.get(2));
      assertThat((System.nanoTime() - start) / 1_000_000).as("ms to the answer").isLessThan(1000);
    }
  }

  /** An address on this machine where nothing listens. */
  private static String closedPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return "127.0.0.1:" + s.getLocalPort();
    }
  }

  /**
   * A replica that takes calls and answers none (its state machine stuck; its connection alive and
   * answering pings) held a client's call for the whole retry window, and the client failed with
   * "no meta replica answered as leader" though another replica led all along.
   */
  @Test
  void aReplicaThatHoldsCallsUnansweredCostsOneAttemptNotTheWholeDeadline() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    RpcServer stuck = replica(call -> new CompletableFuture<>(), requests);
    RpcServer leader = replica(answering(StatusProto.OK, ""), requests);
    // as a client's: the connection's own timeout no shorter than the whole retry window
    assertTheCallReachesTheLeader(stuck, leader, 60_000, Duration.ofSeconds(15));
  }

  /**
   * The meta leader was cut off from the other replicas but not from the data servers. It stepped
   * down and, knowing no leader, answered every heartbeat "no leader elected yet"; the data servers
   * asked it again and again for the whole partition, never the new leader one hop away, and the
   * new leader found all six down.
   */
  @Test
  void aReplicaThatKnowsNoLeaderSendsTheCallerToTheOthers() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    RpcServer deposed =
        replica(
            answering(StatusProto.UNAVAILABLE, "no meta leader is elected yet; retry shortly"),
            requests);
    RpcServer leader = replica(answering(StatusProto.OK, ""), requests);
    // as a data server's heartbeats: the deposed leader first, a window of a few seconds
    assertTheCallReachesTheLeader(deposed, leader, 10_000, Duration.ofSeconds(3));
  }

  /**
   * A caller that knows {@code first} before {@code leader} (connections timing out after {@code
   * connectionTimeoutMs}) gets its answer from the leader within {@code retryFor}, and calls it
   * next time; both replicas are closed afterwards.
   */
  private static void assertTheCallReachesTheLeader(
      RpcServer first, RpcServer leader, long connectionTimeoutMs, Duration retryFor)
      throws Exception {
    RpcClientPool pool = new RpcClientPool("test", 1, 1 << 20, connectionTimeoutMs, 2000);
    try {
      LeaderFollowingCaller caller =
          new LeaderFollowingCaller(
              pool, List.of(address(first), address(leader)), Service.META, retryFor);
      MetaResponseProto reply =
          caller
              .call(
                  READ.toByteArray(),
                  MetaResponseProto::parseFrom,
                  LeaderFollowingCallerTest::outcome)
              .get(Math.max(10, retryFor.toSeconds() + 5), TimeUnit.SECONDS);
      assertThat(reply.getStatus()).isEqualTo(StatusProto.OK);
      assertThat(caller.currentLeader()).isEqualTo(address(leader));
    } finally {
      pool.close();
      first.close();
      leader.close();
    }
  }

  /** Every call answered at once with {@code status} and {@code message}. */
  private static Function<RpcCall, CompletableFuture<RpcReply>> answering(
      StatusProto status, String message) {
    return call ->
        CompletableFuture.completedFuture(
            RpcReply.of(
                MetaResponseProto.newBuilder().setStatus(status).setMessage(message).build()));
  }

  /** A replica answering every call as {@code answer} does, counting them. */
  private static RpcServer replica(
      Function<RpcCall, CompletableFuture<RpcReply>> answer, AtomicInteger requests)
      throws InterruptedException {
    RpcService service =
        new RpcService() {
          @Override
          public CompletableFuture<RpcReply> handle(RpcCall call) {
            call.payload().release();
            requests.incrementAndGet();
            return answer.apply(call);
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

  /**
   * A killed leader (its port refuses connections) and two replicas electing, counting the requests
   * they see.
   */
  private record Election(
      String dead, RpcServer a, RpcServer b, RpcClientPool pool, AtomicInteger requests)
      implements AutoCloseable {
    static Election start() throws Exception {
      String dead = "127.0.0.1:" + freePort();
      AtomicInteger requests = new AtomicInteger();
      RpcServer a = electing(dead, requests);
      RpcServer b = electing(dead, requests);
      return new Election(
          dead, a, b, new RpcClientPool("test", 1, 1 << 20, 10_000, 2000), requests);
    }

    /** A caller that knows the dead leader first, as clients do that last talked to it. */
    LeaderFollowingCaller caller(Duration retryFor) {
      return new LeaderFollowingCaller(
          pool, List.of(dead, address(a), address(b)), Service.META, retryFor);
    }

    @Override
    public void close() {
      pool.close();
      a.close();
      b.close();
    }
  }

  /**
   * A replica during an election: it knows only the dead leader, and answers reads the client could
   * not get there.
   */
  private static RpcServer electing(String deadLeader, AtomicInteger requests)
      throws InterruptedException {
    return replica(
        call -> {
          MetaRequestProto req;
          try {
            req = MetaRequestProto.parseFrom(call.header());
          } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
          }
          boolean answer = req.getFollowerReadOk() && req.getUnreachableLeader().equals(deadLeader);
          return CompletableFuture.completedFuture(
              RpcReply.of(
                  answer
                      ? MetaResponseProto.newBuilder().setStatus(StatusProto.OK).build()
                      : MetaResponseProto.newBuilder()
                          .setStatus(StatusProto.NOT_LEADER)
                          .setLeaderHint(deadLeader)
                          .build()));
        },
        requests);
  }

  private static LeaderFollowingCaller.Outcome outcome(MetaResponseProto r) {
    return new LeaderFollowingCaller.Outcome(r.getStatus(), r.getLeaderHint(), r.getMessage());
  }

  private static String address(RpcServer server) {
    return "127.0.0.1:" + server.port();
  }

  /** A loopback port nothing listens on: connections to it are refused, as to a killed process. */
  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
