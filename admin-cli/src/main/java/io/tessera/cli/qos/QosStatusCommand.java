package io.tessera.cli.qos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.options.PositiveDuration;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.QosStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tessera qos status}: per application, target against achieved share. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Watch every QoS proxy for a window and show, per application: weight, target share (its"
          + " weight over those of the applications served meanwhile), achieved share of the service"
          + " (bytes plus tessera.qos.request-cost per request), MB/s, and the mean time its requests waited in the proxies."
    })
public final class QosStatusCommand extends ConnectedCommand {
  @Option(names = "--json", description = "print JSON for scripts")
  boolean json;

  @Option(
      converter = PositiveDuration.class,
      names = "--window",
      paramLabel = "DURATION",
      defaultValue = "2s",
      description = "how long to watch (default: ${DEFAULT-VALUE})")
  Duration window;

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    QosStatus s = fs.admin().qos().status(window);
    PrintWriter out = out();
    if (json) {
      out.println(
          new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(s));
      return 0;
    }
    if (s.proxies().isEmpty() && s.unreachable().isEmpty()) {
      out.println(
          "No QoS scheduling: start the cluster with tessera local --qos (proxies), or with"
              + " -Dtessera.qos.placement=embedded (in the data servers).");
      return 0;
    }
    out.printf(
        Locale.ROOT,
        "%d QoS schedulers over %.1f s%s%s%n",
        s.proxies().size(),
        s.windowMillis() / 1000.0,
        // only with tessera.qos.totals=exchange do the proxies send each other anything
        s.exchangeBytesPerSecond() > 0
            ? String.format(
                Locale.ROOT,
                " (service totals exchanged: %.1f KB/s)",
                s.exchangeBytesPerSecond() / 1e3)
            : "",
        s.unreachable().isEmpty()
            ? ""
            : " (NOT ANSWERING: " + String.join(", ", s.unreachable()) + ")");
    if (!s.settingsEverywhere()) {
      out.println(
          "Some proxies still apply older settings (they follow the meta group every 500 ms).");
    }
    out.printf(
        Locale.ROOT,
        "%-20s %7s %7s %9s %7s %9s %8s %9s  %s%n",
        "APP",
        "WEIGHT",
        "TARGET",
        "ACHIEVED",
        "ASKED",
        "MB/S",
        "WAITING",
        "QUEUE MS",
        "SETTINGS");
    for (QosStatus.App a : s.apps()) {
      String settings = QosListCommand.describe(a.settings());
      out.printf(
          Locale.ROOT,
          "%-20s %7s %6.1f%% %8.1f%% %6.1f%% %9.1f %7.0f%% %9.2f  %s%n",
          a.settings().app(),
          QosListCommand.weight(a.settings().weight()),
          a.targetShare() * 100,
          a.achievedShare() * 100,
          a.askedShare() * 100,
          a.bytesPerSecond() / 1e6,
          a.waitingFraction() * 100,
          a.queueDelayMillis(),
          settings.substring(settings.indexOf(':') + 2));
    }
    for (QosStatus.App a : s.apps()) {
      if (a.requests() > 0) {
        out.println(verdict(a));
      }
    }
    return 0;
  }

  /**
   * Why an application's achieved share is what it is: weights divide the proxies' service only
   * among requests that wait for it, so an application that never waited got what it asked for,
   * whatever its target.
   */
  static String verdict(QosStatus.App a) {
    String shares =
        String.format(
            Locale.ROOT,
            "%s: achieved %.0f%% of target %.0f%%",
            a.settings().app(),
            a.achievedShare() * 100,
            a.targetShare() * 100);
    if (!a.contended()) {
      return String.format(
          Locale.ROOT,
          "%s: not contended, every request served at once (it waited %.0f%% of the window; it"
              + " asked for %.0f%% of the service and got it)",
          shares,
          a.waitingFraction() * 100,
          a.askedShare() * 100);
    }
    return String.format(
        Locale.ROOT,
        "%s: contended, its requests waited at the proxies %.0f%% of the window (asked for %.0f%%"
            + " of the service)",
        shares,
        a.waitingFraction() * 100,
        a.askedShare() * 100);
  }
}
