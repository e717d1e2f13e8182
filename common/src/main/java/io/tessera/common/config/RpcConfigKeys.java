package io.tessera.common.config;

import java.time.Duration;
import java.util.List;

/** Wire settings shared by every process. */
public final class RpcConfigKeys {
  private RpcConfigKeys() {}

  public static final ConfigKey<Long> MAX_FRAME_SIZE = ConfigKey.size("tessera.rpc.max-frame-size",
      72L << 20, "largest frame accepted or sent; a larger one closes the connection");
  public static final ConfigKey<Duration> CALL_TIMEOUT = ConfigKey.duration("tessera.rpc.call-timeout",
      Duration.ofSeconds(30), "how long a call waits for its answer before failing");
  public static final ConfigKey<Duration> CONNECT_TIMEOUT = ConfigKey.duration("tessera.rpc.connect-timeout",
      Duration.ofSeconds(3), "how long opening a connection may take");
  public static final ConfigKey<Integer> IO_THREADS = ConfigKey.integer("tessera.rpc.io-threads",
      2, "network event-loop threads per process");

  public static final List<ConfigKey<?>> ALL = List.of(MAX_FRAME_SIZE, CALL_TIMEOUT, CONNECT_TIMEOUT, IO_THREADS);

  public static int maxFrameBytes(Config c) {
    long v = c.get(MAX_FRAME_SIZE);
    if (v < 1 << 16 || v > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(MAX_FRAME_SIZE.key() + " must be between 64 KiB and 2 GiB");
    }
    return (int) v;
  }
}
