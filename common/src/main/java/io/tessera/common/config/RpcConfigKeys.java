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
  public static final ConfigKey<Duration> SILENCE_LIMIT = ConfigKey.duration("tessera.rpc.silence-limit",
      Duration.ofSeconds(5), "how long a peer that owes answers may stay silent, not even answering the pings sent"
          + " after 1 s of silence, before its calls fail as unreachable (a stopped or partitioned server); at least 2 s,"
          + " at most the call timeout");
  public static final ConfigKey<Integer> IO_THREADS = ConfigKey.integer("tessera.rpc.io-threads",
      2, "network event-loop threads per process");

  public static final List<ConfigKey<?>> ALL = List.of(MAX_FRAME_SIZE, CALL_TIMEOUT, CONNECT_TIMEOUT, SILENCE_LIMIT,
      IO_THREADS);

  /** The silence limit in milliseconds, checked. */
  public static long silenceLimitMillis(Config c) {
    long v = c.get(SILENCE_LIMIT).toMillis();
    if (v < 2000) {
      throw new IllegalArgumentException(SILENCE_LIMIT.key() + " must be at least 2s (pings go out after 1 s of"
          + " silence); it is " + v + " ms");
    }
    return v;
  }

  public static int maxFrameBytes(Config c) {
    long v = c.get(MAX_FRAME_SIZE);
    if (v < 1 << 16 || v > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(MAX_FRAME_SIZE.key() + " must be between 64 KiB and 2 GiB");
    }
    return (int) v;
  }
}
