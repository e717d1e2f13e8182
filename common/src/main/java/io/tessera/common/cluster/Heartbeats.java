package io.tessera.common.cluster;

import java.time.Duration;

/** What data servers and the meta group agree on about heartbeats. */
public final class Heartbeats {
  private Heartbeats() {}

  /**
   * How long one data server heartbeat looks for the meta leader (following hints, trying the other
   * replicas) before giving up until the next beat. A replica taking over as leader counts every
   * server as heard for the down timeout plus this: a server still asking a deposed leader needs up
   * to this long to find the new one.
   */
  public static final Duration FIND_LEADER_WINDOW = Duration.ofSeconds(3);
}
