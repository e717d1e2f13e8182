package io.tessera.it.console;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Calls to a console's REST API as any HTTP client makes them (the JDK's, nothing of ours). */
final class ConsoleHttp {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String base;

  /** {@code base}: http://host:port of a meta replica's console. */
  ConsoleHttp(String base) {
    this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
  }

  record Reply(int status, String body) {}

  Reply get(String path, String token) throws IOException, InterruptedException {
    return send(request(path, token).GET(), token);
  }

  Reply send(String method, String path, String token, String body)
      throws IOException, InterruptedException {
    return send(
        request(path, token)
            .header("Content-Type", "application/json")
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body)),
        token);
  }

  private HttpRequest.Builder request(String path, String token) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  private static Reply send(HttpRequest.Builder b, String token)
      throws IOException, InterruptedException {
    HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Reply(r.statusCode(), r.body());
  }
}
