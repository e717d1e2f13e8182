package io.tessera.nfs.oncrpc;

import java.util.ArrayDeque;
import java.util.Queue;

/**
 * Bytes of calls the gateway holds at once, over all connections: received and not yet answered.
 * Past the limit, a connection that brings another call stops being read until calls finish. Used
 * from the one event-loop thread that serves every connection, so it needs no locks.
 */
final class CallBudget {
  private final long maxBytes;
  private final Queue<CallHandler> paused = new ArrayDeque<>();
  private long held;

  CallBudget(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  void take(long bytes) {
    held += bytes;
  }

  boolean exhausted() {
    return held > maxBytes;
  }

  /** A connection that waits for bytes to be given back before it reads again. */
  void waitFor(CallHandler handler) {
    paused.add(handler);
  }

  /** Bytes of an answered call: connections that waited read again while there is room. */
  void give(long bytes) {
    held -= bytes;
    while (!exhausted() && !paused.isEmpty()) {
      paused.poll().resumeIfAllowed();
    }
  }
}
