package io.tessera.bench;

import io.tessera.cli.options.ClusterOptions;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterStatus;
import io.tessera.common.proto.DataRequestProto;
import io.tessera.common.proto.SyncRequestProto;
import io.tessera.common.rpc.Frame;
import io.tessera.common.rpc.RpcClientPool;
import io.tessera.common.rpc.Service;
import io.tessera.common.security.TransportSecurity;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tessera bench handshakes}: how many new connections one data server takes a second, each
 * with its TLS handshake (none with tessera.security=off) and one small request, as clients that
 * connect, ask and leave would cost it.
 */
@Command(
    name = "handshakes",
    mixinStandardHelpOptions = true,
    description = {
      "New connections a second to one data server: connect, TLS handshake (none with"
          + " -Dtessera.security=off), one small request (SYNC), close; from --threads clients at once.",
      "Each run is --seconds long; the median and the spread of --runs runs are printed."
    })
public final class HandshakeBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ClusterOptions cluster;

  @Option(names = "--server", description = "the data server (default: the first one up)")
  String server;

  @Option(names = "--threads", defaultValue = "4", description = "clients connecting at once")
  int threads;

  @Option(names = "--seconds", defaultValue = "10", description = "length of one run")
  int seconds;

  @Option(names = "--runs", defaultValue = "3", description = "runs")
  int runs;

  @Override
  public Integer call() throws Exception {
    if (threads < 1 || seconds < 1 || runs < 1) {
      throw new IllegalArgumentException("--threads, --seconds and --runs are at least 1");
    }
    String address = address();
    TransportSecurity security = cluster.transportSecurity();
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "New connections to %s (%s), %d clients, %d s a run%n",
        address,
        security.enabled() ? "TLS " + security.implementation() : "no TLS",
        threads,
        seconds);
    List<Double> rates = new ArrayList<>();
    for (int r = 0; r < runs; r++) {
      double rate = run(address, security);
      rates.add(rate);
      out.printf("run %d: %.0f connections/s%n", r + 1, rate);
      out.flush();
    }
    out.printf(
        "connections/s, median [min-max]: %s%n",
        IorCommand.summary(rates.stream().mapToDouble(Double::doubleValue).toArray()));
    return 0;
  }

  private String address() throws Exception {
    try (TesseraFileSystem fs = cluster.connect()) {
      for (ClusterStatus.DataServer d : fs.admin().status().dataServers()) {
        if ((server == null && d.up()) || d.id().equals(server)) {
          return d.address();
        }
      }
    }
    throw new IllegalArgumentException(
        server == null ? "no data server is up" : "no data server " + server);
  }

  private double run(String address, TransportSecurity security) throws Exception {
    byte[] sync =
        DataRequestProto.newBuilder()
            .setSync(SyncRequestProto.getDefaultInstance())
            .build()
            .toByteArray();
    AtomicLong done = new AtomicLong();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<Thread> clients = new ArrayList<>();
    List<Exception> failures = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      Thread c =
          new Thread(
              () -> {
                try (RpcClientPool pool =
                    new RpcClientPool(
                        "bench-handshakes", 1, 1 << 20, 10_000, 3000, 5000, security)) {
                  while (System.nanoTime() < end) {
                    Frame f =
                        pool.call(address, Service.DATA, sync, null).get(10, TimeUnit.SECONDS);
                    f.release();
                    pool.disconnect(address);
                    done.incrementAndGet();
                  }
                } catch (Exception e) {
                  synchronized (failures) {
                    failures.add(e);
                  }
                }
              },
              "bench-handshakes-" + t);
      c.start();
      clients.add(c);
    }
    for (Thread c : clients) {
      c.join();
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
    return done.get() / ((System.nanoTime() - start) / 1e9);
  }
}
