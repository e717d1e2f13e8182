package io.tessera.cli.qos;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.QosApp;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code tessera qos set APP}: an application's weight, reservation and limit. */
@Command(
    name = "set",
    mixinStandardHelpOptions = true,
    description = {
      "Set an application's QoS settings; options not given keep their current value.",
      "Every proxy applies them within a second; they survive restarts and leader changes.",
      "Example: tessera qos set checkpoint --weight 4; tessera qos set backup --limit 50M"
          + " --reservation 10M"
    })
public final class QosSetCommand extends ConnectedCommand {
  @Parameters(paramLabel = "APP", description = "the application (letters, digits, . _ -)")
  String app;

  @Option(
      names = "--weight",
      paramLabel = "W",
      description = "its proportion of service while applications compete (positive; default 1)")
  Double weight;

  @Option(
      names = "--reservation",
      paramLabel = "SIZE",
      description =
          "bytes per second it gets first, e.g. 10M (0: none); counted through the proxies,"
              + " parity included (an RS 4+2 writer moves 1.5 bytes per byte written)")
  String reservation;

  @Option(
      names = "--limit",
      paramLabel = "SIZE",
      description =
          "bytes per second it never exceeds, even on an idle cluster, e.g. 50M (0: none);"
              + " counted as --reservation is")
  String limit;

  @Option(
      names = "--work-conserving",
      arity = "1",
      paramLabel = "true|false",
      description =
          "false: the proxies keep its share of request slots free while it is idle, so its next"
              + " burst does not queue behind others (default true)")
  Boolean workConserving;

  @Override
  protected void checkArguments() {
    QosArguments.checkApp(app);
    QosArguments.checkWeight(weight);
    if (reservation != null) {
      QosArguments.rate("--reservation", reservation);
    }
    if (limit != null) {
      QosArguments.rate("--limit", limit);
    }
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    QosApp current =
        fs.admin().qos().list().stream()
            .filter(a -> a.app().equals(app))
            .findFirst()
            .orElse(QosApp.defaults(app));
    QosApp next =
        new QosApp(
            app,
            weight != null ? weight : current.weight(),
            reservation != null
                ? QosArguments.rate("--reservation", reservation)
                : current.reservationBytesPerSec(),
            limit != null ? QosArguments.rate("--limit", limit) : current.limitBytesPerSec(),
            workConserving != null ? workConserving : current.workConserving());
    fs.admin().qos().set(next);
    out().println(QosListCommand.describe(next));
    return 0;
  }
}
