package io.tessera.common.platform;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/** A server's background timers: one daemon thread each, named for what it runs. */
public final class DaemonTimer {
  private DaemonTimer() {}

  /** A single-thread scheduler whose thread is called {@code name} and never keeps a JVM alive. */
  public static ScheduledExecutorService named(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }
}
