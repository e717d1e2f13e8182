package io.tessera.client.internal;

import io.tessera.client.IoCounters;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.ClusterStatusResponseProto;
import io.tessera.common.proto.DataServerProto;
import io.tessera.common.proto.DataServerStateProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.StatusProto;
import io.tessera.common.rpc.RpcCall;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.RpcReply;
import io.tessera.common.rpc.RpcServer;
import io.tessera.common.rpc.RpcService;
import io.tessera.common.rpc.Service;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The client's striping core (DataClient, ParityWriter, StripedIo) wired to fake data servers and a
 * fake meta replica on loopback: the meta side answers the server map and records what the client
 * tells it (stale servers, stripe repairs).
 */
final class FakeCluster implements AutoCloseable {
  final Map<String, FakeDataServer> servers = new LinkedHashMap<>();
  final IoCounters counters = new IoCounters();
  final DataClient data;
  final ParityWriter writer;
  final StripedIo io;
  private final List<MetaRequestProto> metaRequests = new ArrayList<>();
  private final RpcServer meta;
  private final RpcClientPool pool;
  private final ExecutorService coding = Executors.newFixedThreadPool(2);

  FakeCluster(int dataServers) throws InterruptedException {
    for (int i = 0; i < dataServers; i++) {
      FakeDataServer s = new FakeDataServer("ds-" + i);
      servers.put(s.id(), s);
    }
    meta =
        RpcServer.start(
            "fake-meta",
            new InetSocketAddress("127.0.0.1", 0),
            Map.of(Service.META, new MetaFake()),
            1 << 20,
            1);
    pool = new RpcClientPool("fake-client", 1, 32 << 20, 5_000, 1_000);
    CallerProto identity = MetaClient.identity(new byte[16], "test");
    MetaClient metaClient =
        new MetaClient(
            pool, List.of("127.0.0.1:" + meta.port()), Duration.ofSeconds(2), identity, false);
    data =
        new DataClient(
            pool,
            metaClient,
            identity,
            new ServerHealth(Duration.ofSeconds(30), System::nanoTime),
            30_000,
            true);
    writer = new ParityWriter(data, metaClient, coding, counters, Duration.ofSeconds(10), this);
    io = new StripedIo(data, writer, coding, counters, new LayoutRefresh(metaClient));
  }

  /** A k+m layout over the first k+m servers, in order. */
  StripeLayout layout(int k, int m, int unit) {
    return new StripeLayout(unit, k, m, List.copyOf(servers.keySet()).subList(0, k + m));
  }

  FakeDataServer server(int i) {
    return servers.get("ds-" + i);
  }

  /** What the client asked the meta replica, but the server map. */
  synchronized List<MetaRequestProto> metaRequests() {
    return List.copyOf(metaRequests);
  }

  private final class MetaFake implements RpcService {
    @Override
    public CompletableFuture<RpcReply> handle(RpcCall call) {
      try {
        MetaRequestProto req = MetaRequestProto.parseFrom(call.header());
        MetaResponseProto.Builder reply = MetaResponseProto.newBuilder().setStatus(StatusProto.OK);
        if (req.hasClusterStatus()) {
          ClusterStatusResponseProto.Builder c = ClusterStatusResponseProto.newBuilder();
          servers
              .values()
              .forEach(
                  s ->
                      c.addDataServers(
                          DataServerProto.newBuilder()
                              .setId(s.id())
                              .setAddress(s.address())
                              .setState(DataServerStateProto.UP)));
          reply.setCluster(c);
        } else {
          synchronized (FakeCluster.this) {
            metaRequests.add(req);
          }
        }
        return CompletableFuture.completedFuture(RpcReply.of(reply.build()));
      } catch (Exception e) {
        return CompletableFuture.failedFuture(e);
      } finally {
        call.payload().release();
      }
    }

    @Override
    public RpcReply errorReply(Throwable cause) {
      return RpcReply.of(
          MetaResponseProto.newBuilder()
              .setStatus(StatusProto.INTERNAL)
              .setMessage(String.valueOf(cause.getMessage()))
              .build());
    }
  }

  @Override
  public void close() {
    servers.values().forEach(FakeDataServer::stop);
    meta.close();
    pool.close();
    coding.shutdownNow();
  }
}
