package io.tessera.common.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FaultPointsTest {
  private final Object dying = new Object();
  private final Object healthy = new Object();

  @AfterEach
  void disarm() {
    FaultPoints.disarmAll(dying);
    FaultPoints.disarmAll(healthy);
    System.clearProperty(FaultPoints.PROPERTY_PREFIX + "test.pause");
  }

  @Test
  void aFaultArmedForOneClientDoesNotFireForAnother() {
    AtomicInteger fired = new AtomicInteger();
    FaultPoints.arm("test.point", dying, fired::incrementAndGet);
    FaultPoints.reach("test.point", healthy);
    FaultPoints.reach("test.other-point", dying);
    assertThat(fired).hasValue(0);
    FaultPoints.reach("test.point", dying);
    assertThat(fired).hasValue(1);
  }

  @Test
  void aThrowingActionFailsTheCallerAndClosingTheOwnerDisarmsIt() {
    FaultPoints.arm(
        "test.point",
        dying,
        () -> {
          throw new IllegalStateException("simulated crash");
        });
    assertThatThrownBy(() -> FaultPoints.reach("test.point", dying)).hasMessage("simulated crash");
    FaultPoints.disarmAll(dying);
    FaultPoints.reach("test.point", dying);
    assertThat(FaultPoints.armed("test.point", dying)).isNull();
  }

  @Test
  void aProcessIsArmedWithAPauseFromItsCommandLine() {
    assertThat(FaultPoints.pauseAt("test.pause")).isEqualTo(Duration.ZERO);
    System.setProperty(FaultPoints.PROPERTY_PREFIX + "test.pause", "3s");
    assertThat(FaultPoints.pauseAt("test.pause")).isEqualTo(Duration.ofSeconds(3));
    System.setProperty(FaultPoints.PROPERTY_PREFIX + "test.pause", "soon");
    assertThatThrownBy(() -> FaultPoints.pauseAt("test.pause"))
        .hasMessageContaining("not a duration");
  }
}
