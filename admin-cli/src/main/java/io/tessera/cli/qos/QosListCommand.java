package io.tessera.cli.qos;

import io.tessera.cli.ConnectedCommand;
import io.tessera.cli.recover.RecoverStatusCommand;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.QosApp;
import io.tessera.common.config.DataSize;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;

/** {@code tessera qos list}. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = "The applications with settings of their own (every other one has weight 1).")
public final class QosListCommand extends ConnectedCommand {
  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    List<QosApp> apps = fs.admin().qos().list();
    if (apps.isEmpty()) {
      out().println("No application has settings of its own: every one has weight 1.");
    }
    apps.forEach(a -> out().println(describe(a)));
    return 0;
  }

  static String describe(QosApp a) {
    StringBuilder b =
        new StringBuilder(String.format(Locale.ROOT, "%s: weight %s", a.app(), weight(a.weight())));
    b.append(
        a.reservationBytesPerSec() > 0
            ? ", reservation " + rate(a.reservationBytesPerSec())
            : ", no reservation");
    b.append(a.limitBytesPerSec() > 0 ? ", limit " + rate(a.limitBytesPerSec()) : ", no limit");
    if (!a.workConserving()) {
      b.append(", not work conserving");
    }
    return b.toString();
  }

  /**
   * A reservation or limit in MB/s, as every rate Tessera prints, with the size it was set as; it
   * counts every byte through the proxies, parity included.
   */
  static String rate(long bytesPerSecond) {
    return RecoverStatusCommand.mbPerS(bytesPerSecond)
        + " ("
        + DataSize.format(bytesPerSecond)
        + "/s as set, parity included)";
  }

  static String weight(double w) {
    return w == Math.rint(w) ? String.valueOf((long) w) : String.valueOf(w);
  }
}
