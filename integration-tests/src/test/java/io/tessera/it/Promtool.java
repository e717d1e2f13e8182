package io.tessera.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A server's /metrics as Prometheus would take it: fetched over HTTP and passed to {@code promtool
 * check metrics} (Debian's prometheus package), which must accept it without a word.
 */
public final class Promtool {
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private Promtool() {}

  /** The exposition text at {@code url}, after promtool found nothing wrong with it. */
  public static String checkedMetrics(String url) throws IOException, InterruptedException {
    HttpResponse<String> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(url).isEqualTo(200);
    Path text = Files.createTempFile("metrics", ".txt");
    try {
      Files.writeString(text, r.body());
      Process promtool =
          new ProcessBuilder("promtool", "check", "metrics")
              .redirectInput(text.toFile())
              .redirectErrorStream(true)
              .start();
      String said = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(promtool.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(promtool.exitValue()).as("promtool on %s: %s", url, said).isZero();
      assertThat(said).as("promtool on %s", url).isBlank();
      return r.body();
    } finally {
      Files.delete(text);
    }
  }

  /** The sum of a metric's samples with the given labels part (e.g. {@code {app="x"}}). */
  public static double sum(String text, String metricWithLabels) {
    double total = 0;
    for (String line : text.split("\n")) {
      if (line.startsWith(metricWithLabels + " ")) {
        total += Double.parseDouble(line.substring(metricWithLabels.length() + 1).trim());
      }
    }
    return total;
  }
}
