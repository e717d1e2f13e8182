package io.tessera.data.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * A capped server serves requests one after another at the device's rate, as a slow disk would:
 * eight concurrent 1 MiB requests at 25 MB/s finish over a third of a second, not all at once.
 */
class DeviceCapTest {
  private long now;

  @Test
  void requestsQueueBehindEachOtherAtTheDevicesRate() {
    DeviceCap cap = new DeviceCap(25_000_000, () -> now);
    long last = 0;
    for (int i = 0; i < 8; i++) {
      last = cap.book(1 << 20);
    }
    assertThat(last / 1e9).as("the eighth request's wait, s").isCloseTo(0.3355, within(0.001));
  }

  @Test
  void anIdleDeviceServesTheNextRequestAfterItsOwnTransferOnly() {
    DeviceCap cap = new DeviceCap(25_000_000, () -> now);
    cap.book(25_000_000);
    now += 5_000_000_000L; // idle for 5 s: nothing is owed
    assertThat(cap.book(250_000)).isEqualTo(10_000_000L);
  }

  @Test
  void noCapServesAtOnce() {
    assertThat(DeviceCap.NONE.book(1L << 30)).isZero();
  }
}
