package io.tessera.common.config;

import io.tessera.common.rpc.RpcServer;
import java.time.Duration;
import java.util.List;

/** Wire settings shared by every process. */
public final class RpcConfigKeys {
  private RpcConfigKeys() {}

  public static final ConfigKey<Long> MAX_FRAME_SIZE =
      ConfigKey.size(
          "tessera.rpc.max-frame-size",
          72L << 20,
          "largest frame accepted or sent; a larger one closes the connection");
  public static final ConfigKey<Duration> CALL_TIMEOUT =
      ConfigKey.duration(
          "tessera.rpc.call-timeout",
          Duration.ofSeconds(30),
          "how long a call waits for its answer before failing");
  public static final ConfigKey<Duration> CONNECT_TIMEOUT =
      ConfigKey.duration(
          "tessera.rpc.connect-timeout",
          Duration.ofSeconds(3),
          "how long opening a connection may take");
  public static final ConfigKey<Duration> SILENCE_LIMIT =
      ConfigKey.duration(
          "tessera.rpc.silence-limit",
          Duration.ofSeconds(20),
          "how long a peer that owes answers may stay silent (pinged after 1 s; a server that owes"
              + " answers also says it is alive every second) before its calls fail as unreachable;"
              + " a peer once heard from after a longer silence gets twice that; at least 2 s, at"
              + " most the call timeout");
  public static final ConfigKey<Integer> IO_THREADS =
      ConfigKey.integer("tessera.rpc.io-threads", 2, "network event-loop threads per process");

  public static final ConfigKey<Long> INCOMPLETE_FRAMES =
      ConfigKey.size(
          "tessera.rpc.incomplete-frames",
          256L << 20,
          "bytes a server holds for frames that arrive in pieces, over all connections of one port; past it,"
              + " connections wait (their senders are slowed) until frames complete");
  public static final ConfigKey<Integer> REQUESTS_PER_CONNECTION =
      ConfigKey.integer(
          "tessera.rpc.requests-per-connection",
          RpcServer.Limits.DEFAULT_REQUESTS_PER_CONNECTION,
          1,
          "requests one connection may have in progress at a server; past it, or while its replies"
              + " are not taken, the server stops reading it (its sender waits, the server's queues"
              + " stay bounded)");
  public static final ConfigKey<Duration> STALLED_FRAME_TIMEOUT =
      ConfigKey.duration(
          "tessera.rpc.stalled-frame-timeout",
          Duration.ofSeconds(30),
          "a server closes a connection that sent part of"
              + " a frame and nothing more for this long");
  public static final ConfigKey<Duration> IDLE_TIMEOUT =
      ConfigKey.duration(
          "tessera.rpc.idle-timeout",
          Duration.ofMinutes(10),
          "a server closes a connection that carried nothing either way for this long (a client"
              + " connects again when it next calls)");

  public static final List<ConfigKey<?>> ALL =
      List.of(
          MAX_FRAME_SIZE,
          CALL_TIMEOUT,
          CONNECT_TIMEOUT,
          SILENCE_LIMIT,
          IO_THREADS,
          INCOMPLETE_FRAMES,
          REQUESTS_PER_CONNECTION,
          STALLED_FRAME_TIMEOUT,
          IDLE_TIMEOUT);

  public static final ConfigSection SECTION = new ConfigSection("RPC", ALL);

  /** The silence limit in milliseconds, checked. */
  public static long silenceLimitMillis(Config c) {
    long v = c.get(SILENCE_LIMIT).toMillis();
    if (v < 2000) {
      throw new IllegalArgumentException(
          SILENCE_LIMIT.key()
              + " must be at least 2s (pings go out after 1 s of"
              + " silence); it is "
              + v
              + " ms");
    }
    return v;
  }

  /**
   * What a server's connections may hold and how long they may stall or idle, from the settings.
   */
  public static RpcServer.Limits serverLimits(Config c) {
    return new RpcServer.Limits(
        maxFrameBytes(c),
        c.get(INCOMPLETE_FRAMES),
        c.get(STALLED_FRAME_TIMEOUT),
        c.get(IDLE_TIMEOUT),
        c.get(IO_THREADS),
        c.get(REQUESTS_PER_CONNECTION));
  }

  public static int maxFrameBytes(Config c) {
    long v = c.get(MAX_FRAME_SIZE);
    if (v < 1 << 16 || v > Integer.MAX_VALUE - 64) {
      throw new IllegalArgumentException(
          MAX_FRAME_SIZE.key() + " must be between 64 KiB and 2 GiB");
    }
    return (int) v;
  }
}
