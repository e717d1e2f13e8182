package io.tessera.cli.options;

import io.tessera.client.CreateOptions;
import io.tessera.common.config.DataSize;
import io.tessera.common.layout.StripeLayout;
import picocli.CommandLine.Option;

/** {@code --ec K+M} and {@code --stripe-unit SIZE}, shared by the commands that create files. */
public final class LayoutOptions {
  @Option(
      names = "--ec",
      paramLabel = "K+M",
      description =
          "layout: K data units and M parity units per stripe, e.g. 6+0 (default: inherited)")
  String ec;

  @Option(
      names = "--stripe-unit",
      paramLabel = "SIZE",
      description = "bytes per stripe unit, e.g. 64K, 1M")
  String stripeUnit;

  @Option(
      names = "--log",
      description =
          "log-structured (PLFS): each writer appends to logs of its own, so N processes writing"
              + " one file in small interleaved records (a checkpoint) go at the speed of N files;"
              + " others see a writer's bytes once it syncs or closes")
  boolean log;

  /** The chosen layout, or null to inherit one. */
  public CreateOptions toOptions() {
    if (ec == null && stripeUnit == null && !log) {
      return null;
    }
    CreateOptions o;
    if (ec != null) {
      try {
        o = CreateOptions.erasure(ec);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--ec " + e.getMessage());
      }
    } else {
      o = CreateOptions.defaults();
    }
    if (stripeUnit != null) {
      long u;
      try {
        u = DataSize.parse(stripeUnit);
        StripeLayout.validate((int) Math.min(u, Integer.MAX_VALUE), 1, 0);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--stripe-unit " + stripeUnit + ": " + e.getMessage());
      }
      o.stripeUnit((int) u);
    }
    return o.log(log);
  }
}
