package io.tessera.common.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.tessera.common.rpc.HostPort;
import java.io.Closeable;
import java.io.IOException;

/**
 * Serves one server's metrics at {@code http://host:port/metrics} (the servers without a console:
 * data servers, QoS proxies, NFS gateways).
 */
public final class MetricsEndpoint implements Closeable {
  private final HTTPServer http;

  private MetricsEndpoint(HTTPServer http) {
    this.http = http;
  }

  /** Starts serving; fails with the address when the port is taken. */
  public static MetricsEndpoint start(HostPort at, ServerMetrics metrics) throws IOException {
    try {
      return new MetricsEndpoint(
          HTTPServer.builder()
              .hostname(at.host())
              .port(at.port())
              .registry(metrics.registry())
              .buildAndStart());
    } catch (IOException e) {
      throw new IOException("cannot serve metrics on " + at + ": " + e.getMessage(), e);
    }
  }

  public int port() {
    return http.getPort();
  }

  @Override
  public void close() {
    http.close();
  }
}
