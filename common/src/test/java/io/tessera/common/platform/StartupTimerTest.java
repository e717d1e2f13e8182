package io.tessera.common.platform;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A slow start's log line says which phase was slow, in the order they ran. */
class StartupTimerTest {
  @Test
  void theAccountNamesEveryPhaseInOrderAfterTheJvmsOwnStart() throws Exception {
    StartupTimer t = StartupTimer.sinceJvmStart();
    t.mark("TLS");
    Thread.sleep(120); // a phase long enough to show in tenths of a second
    t.mark("shard store");

    String account = t.account();

    assertThat(account)
        .matches(
            "\\d+\\.\\d s after its JVM started: JVM and classes \\d+\\.\\d s, TLS \\d+\\.\\d s,"
                + " shard store (0\\.[1-9]|[1-9]\\d*\\.\\d) s");
  }
}
