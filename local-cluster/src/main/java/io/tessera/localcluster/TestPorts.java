package io.tessera.localcluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Port bases for test clusters: ranges that are free now, different for every cluster, and below
 * Linux's ephemeral range (32768 and up), so that no outgoing connection takes the port of a server
 * the test killed and is about to start again.
 */
public final class TestPorts {
  private static final int LOWEST = 10000;
  private static final int HIGHEST = 32000;
  private static final AtomicInteger NEXT =
      new AtomicInteger(LOWEST + (int) (ProcessHandle.current().pid() % 200) * 100);

  private TestPorts() {}

  /** A base such that base .. base+span are all free on 127.0.0.1. */
  public static int freeBase(int span) {
    for (int attempt = 0; attempt < 200; attempt++) {
      int base = NEXT.getAndAdd(span + 10);
      if (base + span > HIGHEST) {
        NEXT.set(LOWEST);
        continue;
      }
      if (allFree(base, span)) {
        return base;
      }
    }
    throw new IllegalStateException("no free port range of " + span + " found");
  }

  private static boolean allFree(int base, int span) {
    for (int p = base; p <= base + span; p++) {
      try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
        s.setReuseAddress(true);
      } catch (IOException e) {
        return false;
      }
    }
    return true;
  }
}
