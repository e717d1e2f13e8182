package io.tessera.cli.qos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.client.admin.QosApp;
import org.junit.jupiter.api.Test;

class QosListCommandTest {
  /** "qos set --limit 5M" showed "5 MiB/s" where every other rate is in MB/s. */
  @Test
  void limitsAndReservationsReadInMegabytesPerSecondLikeEveryOtherRate() {
    String shown = QosListCommand.describe(new QosApp("backup", 1, 10L << 20, 5L << 20, true));

    assertThat(shown)
        .isEqualTo(
            "backup: weight 1, reservation 10.5 MB/s (10 MiB/s as set, parity included), limit"
                + " 5.2 MB/s (5 MiB/s as set, parity included)");
  }
}
